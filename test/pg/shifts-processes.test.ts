import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { FLOOR, giftLedgerCatalog } from '../helpers/gift-catalog';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { call, type Answer } from './hub';
import { hubSuite } from './hub-suite';

/**
 * Contract §14 on PostgreSQL: every engine process sharing a database is one engine with one drawer. Two `serve`
 * processes racing to open a shift: one 201, the other 409 SHIFT_ALREADY_OPEN; racing to close it: one 200 with
 * the next Z number, the other 409 SHIFT_CLOSED — Z numbers 1, 2, 3 … without a gap or a repeat. The processes run
 * `serve --require-shift`: a cash sale before the first shift is refused.
 */

const ROUNDS = 6;
const eur = (amount: number) => ({ amount, currency: 'EUR' });
type Body = { data?: { id: string; number: number; zNumber?: number }; error?: { code: string; details?: { shiftId?: string } } };

describe.skipIf(!postgresAvailable())(postgresSuite('two engine processes, one drawer'), () => {
  const { started, keyOf, query } = hubSuite({ catalog: giftLedgerCatalog(), keyNames: ['staff'], processes: 2, args: ['--require-shift'] });

  it('serve --require-shift: a cash checkout with no open shift is 409 SHIFT_NOT_OPEN', async () => {
    const hub = started();
    const key = keyOf('staff');
    const items = [{ occurrenceId: FLOOR.occurrenceId, inventoryItemId: FLOOR.inventoryItemId, priceOptionId: 'adult', quantity: 1 }];
    const cart = await call<{ data: { id: string; total: { amount: number; currency: string } } }>(hub, 0, key, 'POST', '/carts', { items });
    expect(cart.status).toBe(201);
    const body = { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } };
    const refused = await call<Body>(hub, 1, key, 'POST', '/orders', body, { 'idempotency-key': randomUUID() });
    expect([refused.status, refused.body.error?.code]).toEqual([409, 'SHIFT_NOT_OPEN']);
  });

  it('racing opens: one 201, one 409 SHIFT_ALREADY_OPEN; racing closes: one Z number; gapless over every round', { timeout: 60_000 }, async () => {
    const hub = started();
    const key = keyOf('staff');
    const both = <T>(method: string, path: string, body: unknown): Promise<Answer<T>[]> =>
      Promise.all([0, 1].map((i) => call<T>(hub, i, key, method, path, body)));
    const zNumbers: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const opens = await both<Body>('POST', '/shifts', { openingFloat: eur(1_000 * round) });
      const opened = opens.filter((answer) => answer.status === 201);
      const refused = opens.filter((answer) => answer.status !== 201);
      expect(opened, JSON.stringify(opens.map((answer) => [answer.status, answer.body]))).toHaveLength(1);
      const shift = opened[0]?.body.data;
      if (!shift) throw new Error('no shift opened');
      expect(shift.number).toBe(round);
      expect(refused.map((answer) => [answer.status, answer.body.error?.code, answer.body.error?.details?.shiftId])).toEqual([[409, 'SHIFT_ALREADY_OPEN', shift.id]]);
      // the other process sees the same open shift
      expect((await call<Body>(hub, round % 2, key, 'GET', '/shifts/current')).body.data?.id).toBe(shift.id);

      const closes = await both<Body>('POST', `/shifts/${shift.id}/close`, { counted: eur(1_000 * round) });
      const closed = closes.filter((answer) => answer.status === 200);
      expect(closed, JSON.stringify(closes.map((answer) => [answer.status, answer.body]))).toHaveLength(1);
      expect(closes.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body.error?.code])).toEqual([[409, 'SHIFT_CLOSED']]);
      zNumbers.push(closed[0]?.body.data?.zNumber ?? 0);
    }
    expect(zNumbers).toEqual(Array.from({ length: ROUNDS }, (_, i) => i + 1));
    const rows = await query<{ number: string; z_number: string; status: string }>('SELECT number, z_number, status FROM shifts ORDER BY number');
    expect(rows.map((row) => [Number(row.number), Number(row.z_number), row.status])).toEqual(zNumbers.map((z) => [z, z, 'closed']));
  });
});
