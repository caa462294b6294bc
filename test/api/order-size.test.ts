import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../engine/domain/limits';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { createChannel, v1, v1ErrorOf, type Channel } from '../helpers/v1';
import { fieldLines, largeFieldCatalog, totalOf } from '../helpers/large-orders';
import { FEST, type Order } from '../sync/harness';

/**
 * The most tickets one order may hold (issue #22): LIMITS.maxTicketsPerOrder, the sum of a cart's quantities,
 * refused at cart creation with 400 INVALID_FIELD_VALUE at the quantity that passes it — on POST /carts, in a
 * v1 basket and in a hub's import alike — and nothing held.
 */

const MAX = LIMITS.maxTicketsPerOrder;

let engine: TestEngine;
let channel: Channel;
const file = largeFieldCatalog(10 * MAX);

beforeAll(async () => {
  engine = await startTestEngine({ catalogFile: file.path, demo: false });
  channel = await createChannel(engine);
});
afterAll(async () => {
  await engine.close();
  file.remove();
});

const held = async () => {
  const answer = await engine.request<{ data: { areas: { inventoryItems: { id: string; available: number }[] }[] } }>('GET', `/occurrences/${FEST.occurrenceId}/inventory`);
  return answer.body.data.areas.flatMap((area) => area.inventoryItems).find((item) => item.id === FEST.field.inventoryItemId)?.available;
};

describe(`at most ${MAX} tickets per order`, () => {
  it('is a sane number: a large group, and far below what 50 lines of 100 allowed', () => {
    expect(MAX).toBe(1_000);
    expect(MAX).toBeLessThan(LIMITS.maxItemsPerRequest * LIMITS.maxQuantity);
  });

  it('POST /carts takes exactly the maximum', async () => {
    const lines = fieldLines(MAX);
    const answer = await engine.request<{ data: { id: string; total: { amount: number }; items: { quantity: number }[] } }>('POST', '/carts', { body: { items: lines } });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(201);
    expect(answer.body.data.items.reduce((sum, item) => sum + item.quantity, 0)).toBe(MAX);
    expect(answer.body.data.total.amount).toBe(totalOf(lines));
    expect((await engine.request('DELETE', `/carts/${answer.body.data.id}`)).status).toBe(204);
  });

  it('POST /carts refuses one ticket more: 400 INVALID_FIELD_VALUE at the quantity that passes it, details with the maximum, nothing held', async () => {
    const before = await held();
    const lines = [...fieldLines(MAX), ...fieldLines(1)];
    const answer = await engine.request<ErrorEnvelope>('POST', '/carts', { body: { items: lines } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      type: 'INVALID_REQUEST_ERROR',
      code: 'INVALID_FIELD_VALUE',
      param: `items[${lines.length - 1}].quantity`,
      details: { reason: 'max_tickets_per_order', maxTicketsPerOrder: MAX, requestedTickets: MAX + 1 },
    });
    // the line that passes the maximum, not the last one: 11 lines of 100 fail at the eleventh, whatever follows
    const over = await engine.request<ErrorEnvelope>('POST', '/carts', { body: { items: [...fieldLines(MAX + 100), ...fieldLines(50)] } });
    expect(over.body.error).toMatchObject({ code: 'INVALID_FIELD_VALUE', param: 'items[10].quantity', details: { maxTicketsPerOrder: MAX, requestedTickets: MAX + 150 } });
    expect(await held()).toBe(before);
  });

  it('a v1 basket is held to the same maximum (400 INVALID_FIELD_VALUE in the v1 shape)', async () => {
    const reservations = (count: number) => fieldLines(count).map((line) => ({ productId: line.occurrenceId, aggregateReference: `${line.inventoryItemId}:${line.priceOptionId}`, quantity: line.quantity }));
    const upsert = (reference: string, count: number) => v1(engine, channel, 'PATCH', '/baskets', { body: { reference, reservations: reservations(count) } });
    const fits = await upsert('group-1', MAX);
    expect(fits.status, JSON.stringify(fits.body).slice(0, 300)).toBe(200);
    const error = v1ErrorOf(await upsert('group-2', MAX + 1), 400, 'INVALID_FIELD_VALUE');
    expect(error.message).toContain('reservations[10].quantity');
  });

  it("a hub's import refuses an order over the maximum at orders[i].items[k].quantity and imports the others of the batch", async () => {
    const importKey = await engine.createKey(['orders:import']);
    const order = (count: number) => ({
      idempotencyKey: crypto.randomUUID(),
      reference: `ord_${crypto.randomUUID()}`,
      items: fieldLines(count),
      expectedTotal: { amount: totalOf(fieldLines(count)), currency: 'EUR' },
    });
    const answer = await engine.request<{ data: { results: { status: number; order?: Order; error?: ErrorEnvelope['error'] }[] } }>('POST', '/orders/import', {
      key: importKey,
      body: { orders: [order(MAX), order(MAX + 1)] },
    });
    expect(answer.status).toBe(200);
    const [fits, over] = answer.body.data.results;
    expect(fits?.status).toBe(201);
    expect(fits?.order?.tickets).toHaveLength(MAX);
    expect(over).toMatchObject({
      status: 400,
      error: { code: 'INVALID_FIELD_VALUE', param: 'orders[1].items[10].quantity', details: { reason: 'max_tickets_per_order', maxTicketsPerOrder: MAX, requestedTickets: MAX + 1 } },
    });
  });
});
