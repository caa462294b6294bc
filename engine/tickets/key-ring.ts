import { sign as edSign, verify as edVerify, type KeyObject } from 'node:crypto';
import { formatSignedCode, parseSignedCode, signedPayload, type SignedTicket } from '../domain/signed-code';
import type { NewRevocation } from '../store/revocation-repo';
import type { Store } from '../store/port';
import { keyIdOf, newTicketKey, privateKeyObject, publicKeyObject, type PublicTicketKey } from './ticket-key';

/**
 * The engine's ticket key ring (issue #26, contract §15): signs every ticket it sells with its own Ed25519 key and
 * verifies signed codes against its own keys and those it learned. Loaded once per process (`loadTicketKeyRing`,
 * after the migrations): the first start makes the key pair; a rotation (`npm run keys -- rotate-ticket-key`) is
 * picked up at the next start. The private key lives in the store and in this module's closure only — never logged,
 * never answered. Public KeyObjects are cached; a signed code under a key id not cached makes the ring read the
 * store again (another process of a shared database, or a pull, may have learned it since).
 */
export interface TicketKeyRing {
  /** the key id this process signs with */
  readonly keyId: string;
  /** the K1 code of a ticket */
  sign(ticket: SignedTicket): string;
  /** a signed code's ticket; undefined when malformed, under an unknown key or with a wrong signature */
  verify(text: string): Promise<SignedTicket | undefined>;
  /** other engines' public keys learned (each key id checked against its key); answers how many were new */
  learn(keys: readonly PublicTicketKey[]): Promise<number>;
  /** every public key: own (current and earlier) and learned, oldest first */
  list(): Promise<PublicTicketKey[]>;
  /** this engine's own public keys */
  own(): Promise<PublicTicketKey[]>;
  /** stores revocations pulled from a hub (insert-or-ignore by code) */
  revoke(rows: readonly NewRevocation[]): Promise<void>;
}

/** A learned key refused: its id is not its key's, its key is not an Ed25519 key, or its id is known with another key. */
export class TicketKeyRefused extends Error {
  constructor(readonly keyId: string, readonly reason: 'key_id_mismatch' | 'not_a_key' | 'known_with_another_key') {
    super(`ticket key ${keyId} refused: ${reason}`);
  }
}

const publicOf = ({ keyId, publicKey, engine }: PublicTicketKey): PublicTicketKey => ({ keyId, publicKey, engine });

/** Loads the ring; makes this engine's first key pair when it has none (race-free among processes sharing a database). */
export async function loadTicketKeyRing(store: Store, now: () => number = Date.now): Promise<TicketKeyRing> {
  const repo = store.repos.ticketKeys;
  const own = (await repo.signing()) ?? (await repo.createSigning(newTicketKey(new Date(now()).toISOString())));
  if (own.privateKey === null) throw new Error(`the signing ticket key ${own.keyId} has no private key`);
  const privateKey = privateKeyObject(own.privateKey);
  const verifiers = new Map<string, KeyObject>();
  const reload = async () => {
    for (const key of await repo.all()) {
      if (verifiers.has(key.keyId)) continue;
      const object = publicKeyObject(key.publicKey);
      if (object) verifiers.set(key.keyId, object);
    }
  };
  await reload();

  return {
    keyId: own.keyId,
    sign(ticket) {
      const payload = signedPayload(ticket);
      return formatSignedCode(payload, edSign(null, payload, privateKey), own.keyId);
    },
    async verify(text) {
      const parsed = parseSignedCode(text);
      if (!parsed) return undefined;
      if (!verifiers.has(parsed.keyId)) await reload();
      const key = verifiers.get(parsed.keyId);
      if (!key) return undefined;
      return edVerify(null, parsed.payloadBytes, key, parsed.signature) ? parsed.payload : undefined;
    },
    async learn(keys) {
      const known = new Map((await repo.all()).map((key) => [key.keyId, key.publicKey]));
      for (const key of keys) {
        if (publicKeyObject(key.publicKey) === undefined) throw new TicketKeyRefused(key.keyId, 'not_a_key');
        if (keyIdOf(key.publicKey) !== key.keyId) throw new TicketKeyRefused(key.keyId, 'key_id_mismatch');
        const stored = known.get(key.keyId);
        if (stored !== undefined && stored !== key.publicKey) throw new TicketKeyRefused(key.keyId, 'known_with_another_key');
      }
      const createdAt = new Date(now()).toISOString();
      const learned = await repo.learn(keys.map((key) => ({ ...publicOf(key), createdAt })));
      await reload();
      return learned;
    },
    list: async () => (await repo.all()).map(publicOf),
    own: async () => (await repo.all()).filter((key) => key.privateKey !== null).map(publicOf),
    async revoke(rows) {
      await store.repos.revocations.add(rows);
    },
  };
}
