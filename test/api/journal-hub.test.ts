import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { journalEntries, verifyJournal } from '../helpers/journal';
import { FEST, catalogFile, type Order } from '../sync/harness';

/**
 * What a hub does not journal (contract §14, issue #25): orders it imports from a terminal, and that terminal's own
 * cancellation of one — both are in the terminal's journal, which reaches the hub by sync. A cancellation made at
 * the hub of an imported order is made there: journalled there.
 */

let hub: TestEngine;
let terminalKey: string;
const file = catalogFile();

beforeAll(async () => {
  hub = await startTestEngine({ catalogFile: file.path, demo: false });
  // a terminal's sync key: imports, and cancels what it imported
  terminalKey = await hub.createKey(['orders:import', 'orders:write', 'orders:read']);
});
afterAll(async () => {
  await hub.close();
  file.remove();
});

async function importOne(): Promise<Order> {
  const order = {
    idempotencyKey: crypto.randomUUID(),
    reference: `ord_${crypto.randomUUID()}`,
    items: [{ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity: 1 }],
    expectedTotal: { amount: FEST.prices.adult, currency: 'EUR' },
  };
  const answer = await hub.request<{ data: { results: { status: number; order?: Order }[] } }>('POST', '/orders/import', { key: terminalKey, body: { orders: [order] } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const imported = answer.body.data.results[0]?.order;
  if (!imported) throw new Error(JSON.stringify(answer.body));
  return imported;
}

describe('a hub\'s journal', () => {
  it('leaves out imported orders and their terminal\'s cancellations, and records a cancellation made at the hub', async () => {
    const first = await importOne();
    const second = await importOne();
    expect(await journalEntries(hub)).toEqual([]);
    expect((await hub.request('POST', `/orders/${first.id}/cancel`, { key: terminalKey })).status).toBe(200);
    expect(await journalEntries(hub)).toEqual([]);
    // the hub's staff (another key) cancels the other one: made here, journalled here
    expect((await hub.request('POST', `/orders/${second.id}/cancel`)).status).toBe(200);
    const entries = await journalEntries(hub);
    expect(entries).toEqual([expect.objectContaining({ seq: 1, kind: 'cancellation', ref: second.id, amount: second.total })]);
    expect(entries[0]?.data).toMatchObject({ refunds: [{ method: 'external', amount: second.total }], baseTotal: second.total });
    expect(await verifyJournal(hub)).toMatchObject({ ok: true, entries: 1 });
  });
});
