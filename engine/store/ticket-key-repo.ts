import type { Db } from './db';

/**
 * The ticket keys (issue #26, contract §15): this engine's own Ed25519 keys — the signing one and earlier ones, with
 * their private keys (PKCS#8 DER, base64url) — and the public keys it learned from other engines (no private key).
 * Read by engine/tickets/key-ring.ts only; the private key never leaves that module.
 */
export interface TicketKeyRow {
  keyId: string;
  /** base64url of the raw 32-byte public key */
  publicKey: string;
  /** PKCS#8 DER, base64url: own keys only */
  privateKey: string | null;
  engine: string;
  createdAt: string;
  signing: boolean;
}

/** a learned key: its public part */
export interface LearnedKeyRow { keyId: string; publicKey: string; engine: string; createdAt: string }

/** where a ticket of an inventory item admits to, as its signed code names it */
export interface TicketPlace { inventoryItemId: string; areaId: string; seat: string | null }

type RawKey = Omit<TicketKeyRow, 'signing'> & { signing: number };
const COLUMNS = 'key_id AS keyId, public_key AS publicKey, private_key AS privateKey, engine, created_at AS createdAt, signing';
const row = (raw: RawKey): TicketKeyRow => ({ ...raw, signing: raw.signing === 1 });

export function createTicketKeyRepo(db: Db) {
  const all = db.prepare<[], RawKey>(`SELECT ${COLUMNS} FROM ticket_keys ORDER BY created_at, key_id`);
  const signing = db.prepare<[], RawKey>(`SELECT ${COLUMNS} FROM ticket_keys WHERE signing = 1`);
  const insert = db.prepare(`INSERT INTO ticket_keys (key_id, public_key, private_key, engine, created_at, signing)
    VALUES (@keyId, @publicKey, @privateKey, @engine, @createdAt, @signing) ON CONFLICT DO NOTHING`);
  const retire = db.prepare('UPDATE ticket_keys SET signing = 0 WHERE signing = 1');
  const places = db.prepare<[string, string], TicketPlace>(`SELECT ii.id AS inventoryItemId, ii.area_id AS areaId,
      CASE WHEN a.seating = 'assigned' THEN ii.label END AS seat
    FROM inventory_items ii JOIN areas a ON a.occurrence_id = ii.occurrence_id AND a.id = ii.area_id
    WHERE ii.occurrence_id = ? AND ii.id IN (SELECT value FROM json_each(?))`);

  return {
    /** every key, own and learned, oldest first */
    all: (): TicketKeyRow[] => all.all().map(row),
    /** the key this engine signs with now */
    signing: (): TicketKeyRow | undefined => {
      const found = signing.get();
      return found && row(found);
    },
    /** keeps `key` as the signing key unless there is one already; answers the signing key kept */
    createSigning(key: Omit<TicketKeyRow, 'signing'>): TicketKeyRow {
      insert.run({ ...key, signing: 1 });
      const kept = signing.get();
      if (!kept) throw new Error('the signing ticket key vanished as it was made');
      return row(kept);
    },
    /** makes `key` the signing key; the one before stays (signing = 0), its tickets still verify. In a transaction. */
    rotate(key: Omit<TicketKeyRow, 'signing'>): void {
      retire.run();
      insert.run({ ...key, signing: 1 });
    },
    /** stores public keys of other engines (a key id known already is left as it is); answers how many were new */
    learn(keys: readonly LearnedKeyRow[]): number {
      let learned = 0;
      for (const key of keys) learned += insert.run({ ...key, privateKey: null, signing: 0 }).changes;
      return learned;
    },
    /** the area and seat label of inventory items of an occurrence (what a signed code names) */
    places: (occurrenceId: string, inventoryItemIds: readonly string[]): TicketPlace[] => places.all(occurrenceId, JSON.stringify(inventoryItemIds)),
  };
}

export type TicketKeyRepo = ReturnType<typeof createTicketKeyRepo>;
