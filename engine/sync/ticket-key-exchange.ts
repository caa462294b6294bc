import type { Log } from '../log';
import type { HubTicketKey } from '../contract/hub-checkins';
import type { Storage } from '../shared/context';
import type { Channel } from './channel';
import { isTransient } from './retry';
import { dataOf, errorOf } from './upstream';

/**
 * Ticket keys and revocations between a terminal and its hub (issue #26, contract §15). A terminal gives the hub its
 * own public keys at first contact — before it asks for places, so nothing it sells carries a signature the hub and
 * the gates cannot check — and at every pull learns every other key the hub knows and the tickets cancelled since
 * its cursor (GET /ticket-revocations, every page). The key ring itself is engine/tickets'; the worker reaches it
 * through this small port (wired in engine/start.ts).
 */
export interface TicketKeyPort {
  /** this engine's own public keys (the signing one and earlier ones) */
  own(): Promise<HubTicketKey[]>;
  /** learns other engines' public keys (each key id checked against its key) */
  learn(keys: readonly HubTicketKey[]): Promise<unknown>;
  /** stores revocations pulled from the hub (insert-or-ignore by code) */
  revoke(rows: readonly Revocation[]): Promise<void>;
}

export interface Revocation {
  readonly code: string;
  readonly occurrenceId: string;
  readonly at: string;
}

/** sync_state: the own key ids the hub took (comma-separated): a terminal started again offline still sells */
export const KEYS_GIVEN = 'ticket_keys_given';
/** sync_state: the last revocation seq pulled from the hub */
export const REVOCATION_CURSOR = 'revocations_after';
/** revocations per page asked of the hub */
const REVOCATION_PAGE = 1000;

/** Whether the hub took every own key of this terminal already (as remembered in sync_state). */
export async function keysGiven(ctx: Storage, keys: TicketKeyPort): Promise<boolean> {
  const given = new Set(((await ctx.store.repos.outbox.state(KEYS_GIVEN)) ?? '').split(',').filter((id) => id !== ''));
  return (await keys.own()).every((key) => given.has(key.keyId));
}

export type KeyOffer = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly offline: boolean; readonly keyRejected: boolean };

/** POST /hub/ticket-keys: gives the hub this terminal's public keys (idempotent there); remembered once taken. */
export async function offerOwnKeys(ctx: Storage, hub: Channel, keys: TicketKeyPort, logger: Log): Promise<KeyOffer> {
  const own = await keys.own();
  if (own.length === 0) return { ok: true };
  const answer = await hub.post('/hub/ticket-keys', { keys: own }, { repeatable: true });
  if (answer.status === 200) {
    await ctx.store.repos.outbox.setState(KEYS_GIVEN, own.map((key) => key.keyId).join(','));
    return { ok: true };
  }
  const code = errorOf(answer)?.code;
  const keyRejected = answer.status === 401 || code === 'INSUFFICIENT_PERMISSIONS';
  const offline = isTransient(answer.status) || answer.status === 429;
  if (!offline && !keyRejected) logger.error({ status: answer.status, code }, "the hub refuses this terminal's ticket keys: no place is asked for until it takes them");
  return { ok: false, reason: `ticket keys: the hub answered ${answer.status || 'nothing'}${code === undefined ? '' : ` ${code}`}`, offline, keyRejected };
}

/** GET /ticket-keys at the hub: every key but this terminal's own is learned. False: not answered. */
export async function pullTicketKeys(hub: Channel, keys: TicketKeyPort): Promise<boolean> {
  const answer = await hub.get('/ticket-keys');
  const listed = answer.status === 200 ? dataOf<unknown>(answer) : undefined;
  if (!Array.isArray(listed)) return false;
  const own = new Set((await keys.own()).map((key) => key.keyId));
  const others = listed.filter(isKey).filter((key) => !own.has(key.keyId));
  if (others.length > 0) await keys.learn(others);
  return true;
}

function isKey(value: unknown): value is HubTicketKey {
  if (typeof value !== 'object' || value === null || !('keyId' in value) || !('publicKey' in value) || !('engine' in value)) return false;
  return typeof value.keyId === 'string' && typeof value.publicKey === 'string' && typeof value.engine === 'string';
}

/** GET /ticket-revocations?after=cursor at the hub, every page: stored here, the cursor kept in sync_state. False: not answered. */
export async function pullRevocations(ctx: Storage, hub: Channel, keys: TicketKeyPort): Promise<boolean> {
  let after = Number((await ctx.store.repos.outbox.state(REVOCATION_CURSOR)) ?? 0) || 0;
  for (;;) {
    const answer = await hub.get(`/ticket-revocations?after=${after}&limit=${REVOCATION_PAGE}`);
    const page = answer.status === 200 ? dataOf<unknown>(answer) : undefined;
    if (!Array.isArray(page)) return false;
    const rows = page.filter(isRevocation);
    const last = rows.at(-1);
    if (!last) return true;
    await keys.revoke(rows.map(({ code, occurrenceId, at }) => ({ code, occurrenceId, at })));
    await ctx.store.repos.outbox.setState(REVOCATION_CURSOR, String(last.seq));
    after = last.seq;
    const body = answer.body;
    if (typeof body !== 'object' || body === null || !('nextAfter' in body) || typeof body.nextAfter !== 'number') return true;
  }
}

function isRevocation(value: unknown): value is Revocation & { seq: number } {
  if (typeof value !== 'object' || value === null || !('seq' in value) || !('code' in value) || !('occurrenceId' in value) || !('at' in value)) return false;
  return typeof value.seq === 'number' && typeof value.code === 'string' && typeof value.occurrenceId === 'string' && typeof value.at === 'string';
}
