import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedProxy, ScriptedRequest } from '../helpers/scripted-proxy';
import { holdsPlaces, startHubAndTill, type HubAndTill } from './serve-terminals';
import { FEST, readonlyDb, sellItem, waitForStatus, type Api } from './harness';

/**
 * A terminal of this version syncing to a hub of the version before issue #26 (commit 756a0fd): the hub's
 * capabilities do not offer `checkins`, and its order import knows no `tickets` field — its schema refuses an order
 * naming them (400 INVALID_FIELD_VALUE, reason unknown_field, as an engine refuses any unknown field). The older hub
 * is the real hub behind a proxy that answers as that version would. The terminal must send it orders without their
 * tickets' codes: every order reaches the hub exactly once and no sale lands in the conflict inbox. Both engines are
 * real `serve` processes at the shipped defaults (retry step, pulls, allocations).
 */

let setup: HubAndTill | undefined;
let proxy: ScriptedProxy;
let hubDir: string;
let tillApi: Api;

const isImport = (request: ScriptedRequest): boolean => request.method === 'POST' && request.path === '/api/v3/orders/import';
const ordersOf = (request: ScriptedRequest): { tickets?: unknown }[] => {
  const body = request.body as { orders?: { tickets?: unknown }[] } | undefined;
  return Array.isArray(body?.orders) ? body.orders : [];
};

beforeAll(async () => {
  setup = await startHubAndTill('older-hub', {
    decide(request) {
      const i = ordersOf(request).findIndex((order) => order.tickets !== undefined);
      if (!isImport(request) || i < 0) return 'forward';
      return {
        status: 400,
        body: { error: { type: 'invalid_request_error', code: 'INVALID_FIELD_VALUE', param: `orders[${i}].tickets`, message: 'orders[].tickets is not a field of this request', details: { reason: 'unknown_field' } } },
      };
    },
    rewrite(request, body) {
      if (request.path !== '/api/v3/capabilities') return undefined;
      const data = (body as { data?: { extensions?: unknown } } | undefined)?.data;
      if (!data || !Array.isArray(data.extensions)) return undefined;
      return { ...(body as object), data: { ...data, extensions: data.extensions.filter((name) => name !== 'checkins') } };
    },
  });
  ({ proxy, hubDir, tillApi } = setup);
}, 60_000);
afterAll(async () => {
  await setup?.close();
});

describe('a terminal and a hub without check-ins', () => {
  it('sends its orders without the tickets\' codes: each reaches the hub exactly once, no conflict', async () => {
    // the proxy answers as the older hub: no `checkins` among the extensions the terminal reads
    await waitForStatus(tillApi, (status) => status.upstreamKind === 'hub', 30_000, 'the till to know its hub');
    await holdsPlaces(tillApi);
    // the till signs its tickets all the same (its own gates and printed codes), but gives the older hub no key
    const sold = [
      await sellItem(tillApi, FEST.field.inventoryItemId, FEST.field.adult, 2),
      await sellItem(tillApi, FEST.field.inventoryItemId, FEST.field.adult, 1),
    ];
    expect((sold[0]?.tickets[0] as { signedCode?: string } | undefined)?.signedCode).toMatch(/^K1\./);
    const synced = await waitForStatus(tillApi, (status) => status.waiting === 0, 30_000, 'the till to deliver its orders');
    expect(synced.conflicts).toEqual([]);
    expect(proxy.seen.some((request) => request.path === '/api/v3/hub/ticket-keys')).toBe(false);

    // every import the till sent was one the older hub reads: no order named its tickets
    const imports = proxy.seen.filter(isImport);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.flatMap(ordersOf).filter((order) => order.tickets !== undefined)).toEqual([]);

    // exactly once at the hub, by the till's order ids (each import's reference); the hub made the tickets' codes
    const atHub = readonlyDb(hubDir, (db) => db.prepare<[], { reference: string; tickets: number }>(
      'SELECT i.reference AS reference, (SELECT COUNT(*) FROM tickets t WHERE t.order_id = i.order_id) AS tickets FROM order_imports i ORDER BY i.reference',
    ).all());
    expect(atHub).toEqual(sold.map((order) => ({ reference: order.id, tickets: order.tickets.length })).sort((a, b) => a.reference.localeCompare(b.reference)));
  }, 90_000);
});
