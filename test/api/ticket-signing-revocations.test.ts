import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart, seat } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { cash, expectError, ISO_TIMESTAMP, placeOrder, type Order } from '../helpers/orders';
import { revocations, type Revocation } from '../helpers/ticket-signing';

/**
 * The revocation list (issue #26, contract §15) on both databases: cancelling an order revokes its tickets in the
 * cancellation's transaction; GET /ticket-revocations pages them in seq order after `after` (scope checkin or
 * catalog:read) — what a gate pulls to refuse a cancelled ticket offline.
 */

let engine: TestEngine;
let checkinKey: string;
beforeAll(async () => {
  engine = await startTestEngine();
  checkinKey = await engine.createKey(['checkin']);
});
afterAll(() => engine.close());

async function sellAndCancel(items: Parameters<typeof createCart>[1]): Promise<Order> {
  const cart = await createCart(engine, items);
  const order = await placeOrder(engine, cart.id, cart.total, cash());
  const cancelled = await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`);
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  return order;
}

describe('ticket revocations', () => {
  it('starts empty; an order not cancelled revokes nothing', async () => {
    const cart = await createCart(engine, [concert(1)]);
    await placeOrder(engine, cart.id, cart.total, cash());
    const answer = await revocations(engine);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: [] });
  });

  it('lists every ticket of a cancelled order, once, paged with after and limit', async () => {
    const first = await sellAndCancel([concert(3)]);
    const second = await sellAndCancel([seat('C4')]);
    // cancelling again changes nothing
    expect((await engine.request('POST', `/orders/${first.id}/cancel`)).status).toBe(200);
    const all = await revocations(engine, '', checkinKey);
    expect(all.status).toBe(200);
    expect(all.body.nextAfter).toBeUndefined();
    const expected = [
      ...first.tickets.map((ticket) => ({ code: ticket.code, occurrenceId: 'brass-2027-03-12' })),
      ...second.tickets.map((ticket) => ({ code: ticket.code, occurrenceId: 'tempest-2027-04-02' })),
    ];
    expect(all.body.data.map(({ code, occurrenceId }) => ({ code, occurrenceId }))).toEqual(expected);
    const seqs = all.body.data.map((row) => row.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(4);
    for (const row of all.body.data) expect(row.at).toMatch(ISO_TIMESTAMP);

    const pages: Revocation[][] = [];
    let after = 0;
    for (;;) {
      const page = await revocations(engine, `?after=${after}&limit=3`);
      expect(page.status).toBe(200);
      pages.push(page.body.data);
      if (page.body.nextAfter === undefined) break;
      expect(page.body.nextAfter).toBe(page.body.data.at(-1)?.seq);
      after = page.body.nextAfter;
    }
    expect(pages.map((page) => page.length)).toEqual([3, 1]);
    expect(pages.flat()).toEqual(all.body.data);
    expect((await revocations(engine, `?after=${seqs.at(-1) ?? 0}`)).body).toEqual({ data: [] });
  });

  it('refuses a bad after or limit (400) and a key without checkin or catalog:read (403)', async () => {
    for (const query of ['?after=-1', '?after=x', '?limit=0', '?limit=5001', '?limit=1.5', '?other=1']) {
      expect((await revocations(engine, query)).status, query).toBe(400);
    }
    expect((await revocations(engine, '?limit=5000')).status).toBe(200);
    expectError(await engine.request('GET', '/ticket-revocations', { key: engine.keys.ordersRead }), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});
