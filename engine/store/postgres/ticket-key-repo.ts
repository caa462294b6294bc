import type { Async } from '../port-types';
import type { TicketKeyRepo, TicketKeyRow, TicketPlace } from '../ticket-key-repo';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/ticket-key-repo.ts. Every process sharing the database signs with the one signing key:
 * `createSigning` inserts conditionally on the unique partial index of the signing row and reads the row kept, so
 * processes making the first key at once end with one (the first committed).
 */

const COLUMNS = 'key_id AS "keyId", public_key AS "publicKey", private_key AS "privateKey", engine, created_at AS "createdAt", signing';
const INSERT = `INSERT INTO ticket_keys (key_id, public_key, private_key, engine, created_at, signing) VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT DO NOTHING`;
type RawKey = Omit<TicketKeyRow, 'signing'> & { signing: number };
const row = (raw: RawKey): TicketKeyRow => ({ ...raw, signing: raw.signing === 1 });

export function createPgTicketKeyRepo(q: Queryable): Async<TicketKeyRepo> {
  const signing = async () => (await q.query<RawKey>(`SELECT ${COLUMNS} FROM ticket_keys WHERE signing = 1`)).rows[0];
  return {
    all: async () => (await q.query<RawKey>(`SELECT ${COLUMNS} FROM ticket_keys ORDER BY created_at, key_id`)).rows.map(row),
    async signing() {
      const found = await signing();
      return found && row(found);
    },
    async createSigning(key) {
      await q.query(INSERT, [key.keyId, key.publicKey, key.privateKey, key.engine, key.createdAt, 1]);
      const kept = await signing();
      if (!kept) throw new Error('the signing ticket key vanished as it was made');
      return row(kept);
    },
    async rotate(key) {
      await q.query('UPDATE ticket_keys SET signing = 0 WHERE signing = 1');
      await q.query(INSERT, [key.keyId, key.publicKey, key.privateKey, key.engine, key.createdAt, 1]);
    },
    async learn(keys) {
      let learned = 0;
      for (const key of keys) learned += (await q.query(INSERT, [key.keyId, key.publicKey, null, key.engine, key.createdAt, 0])).rowCount ?? 0;
      return learned;
    },
    places: async (occurrenceId, inventoryItemIds) => (await q.query<TicketPlace & Record<string, unknown>>(`SELECT ii.id AS "inventoryItemId",
        ii.area_id AS "areaId", CASE WHEN a.seating = 'assigned' THEN ii.label END AS seat
      FROM inventory_items ii JOIN areas a ON a.occurrence_id = ii.occurrence_id AND a.id = ii.area_id
      WHERE ii.occurrence_id = $1 AND ii.id = ANY($2::text[])`, [occurrenceId, [...inventoryItemIds]])).rows,
  };
}
