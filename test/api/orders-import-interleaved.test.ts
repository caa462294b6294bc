import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../engine/domain/limits';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { fieldLines, largeFieldCatalog, totalOf } from '../helpers/large-orders';
import { FEST, type Order } from '../sync/harness';
import { readNumber, readRows } from '../helpers/db-rows';

/**
 * A hub imports a batch one transaction per order and lets other requests run between them (issue #22). What
 * must not change: each order exactly once and all or nothing, even when the same batch comes twice at once (a
 * terminal's retry after a lost answer) and tills sell from the same stock in between.
 */

const MAX = LIMITS.maxTicketsPerOrder;
const ORDERS = 4;
const CAPACITY = (ORDERS + 1) * MAX;

interface Result {
  status: number;
  replayed?: boolean;
  order?: Order;
}

let engine: TestEngine;
const file = largeFieldCatalog(CAPACITY);
beforeAll(async () => {
  engine = await startTestEngine({ catalogFile: file.path, demo: false });
});
afterAll(async () => {
  await engine.close();
  file.remove();
});

const sold = async () => (await readRows<{ held: number; sold: number }>(engine, 'SELECT held, sold FROM inventory_items WHERE id = ?', [FEST.field.inventoryItemId]))[0];

describe('a batch of large orders imported while the same batch comes again and tills sell', () => {
  it('creates each order once, answers both batches with the same orders, and never sells past capacity', async () => {
    const importKey = await engine.createKey(['orders:import']);
    const orders = Array.from({ length: ORDERS }, () => ({
      idempotencyKey: crypto.randomUUID(),
      reference: `ord_${crypto.randomUUID()}`,
      items: fieldLines(MAX),
      expectedTotal: { amount: totalOf(fieldLines(MAX)), currency: 'EUR' },
    }));
    const batch = () => engine.request<{ data: { results: Result[] } }>('POST', '/orders/import', { key: importKey, body: { orders } });
    // a till takes small carts from the same field meanwhile, until the field is sold out
    const till = async () => {
      let tickets = 0;
      for (let i = 0; i < 40; i += 1) {
        const cart = await engine.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', { body: { items: fieldLines(50) } });
        if (cart.status !== 201) continue;
        const placed = await engine.request('POST', '/orders', {
          body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } },
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        if (placed.status === 201) tickets += 50;
      }
      return tickets;
    };
    const [first, second, tillTickets] = await Promise.all([batch(), batch(), till()]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const created = new Set<string>();
    orders.forEach((_, index) => {
      const one = first.body.data.results[index];
      const other = second.body.data.results[index];
      // each order imported by one of the two requests, the other answered with the same order
      if (one?.status === 201 && other?.status === 201) {
        expect(one.order?.id).toBe(other.order?.id);
        expect([one.replayed === true, other.replayed === true].sort()).toEqual([false, true]);
        expect(one.order?.tickets).toHaveLength(MAX);
        created.add(one.order?.id ?? '');
      } else {
        // sold out by the till first: refused whole, by both
        expect([one?.status, other?.status]).toEqual([409, 409]);
      }
    });
    const stock = await sold();
    expect(stock?.held).toBe(0);
    expect(stock?.sold).toBe(created.size * MAX + tillTickets);
    expect(stock?.sold).toBeLessThanOrEqual(CAPACITY);
    const tickets = await readNumber(engine, 'SELECT COUNT(*) AS n FROM tickets');
    expect(tickets).toBe(stock?.sold);
  }, 120_000);
});
