import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { madeCode } from '../helpers/checkins';
import { FLOOR, giftLedgerCatalog } from '../helpers/gift-catalog';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { call, type Answer } from './hub';
import { hubSuite } from './hub-suite';

/**
 * Issue #26 (contract §15): two gates never admit one ticket, also when they are engine processes on one PostgreSQL
 * database. Three `serve` processes at the shipped defaults; every ticket of an order is checked in through all
 * three at once, many times: exactly one 201 per ticket, every other answer 409 ALREADY_CHECKED_IN, no 5xx; then
 * the same for "out" (one `left`, the rest 409 NOT_CHECKED_IN); the stored check-ins and presence agree, and
 * every process answers the same counts.
 */

const TICKETS = 5;
const TRIES = 24;
const GATES = Array.from({ length: 6 }, (_, i) => `gate-${i}`);

interface Money { amount: number; currency: string }
type CheckinAnswer = { data?: { result: string; ticket: { code: string }; gate: string }; error?: { code: string; type: string } };

describe.skipIf(!postgresAvailable())(postgresSuite('one ticket checked in at once through three engine processes on one PostgreSQL database'), () => {
  const { started, keyOf, query } = hubSuite({ catalog: giftLedgerCatalog(), keyNames: ['seller', ...GATES], processes: 3 });

  const storm = (codes: readonly string[], direction: 'in' | 'out') => {
    const h = started();
    return Promise.all(codes.flatMap((code) => Array.from({ length: TRIES }, (_, i) =>
      call<CheckinAnswer>(h, i % 3, keyOf(GATES[i % GATES.length] ?? 'seller'), 'POST', '/checkins', { code, direction, gate: `G${i % 3}` }))));
  };

  const byCode = (answers: readonly Answer<CheckinAnswer>[], codes: readonly string[]) =>
    codes.map((code, n) => answers.slice(n * TRIES, (n + 1) * TRIES));

  it('exactly one 201 per ticket, the rest ALREADY_CHECKED_IN (then NOT_CHECKED_IN for "out"); presence consistent', { timeout: 60_000 }, async () => {
    const h = started();
    const cart = await call<{ data: { id: string; total: Money } }>(h, 0, keyOf('seller'), 'POST', '/carts',
      { items: [{ occurrenceId: FLOOR.occurrenceId, inventoryItemId: FLOOR.inventoryItemId, priceOptionId: 'adult', quantity: TICKETS }] });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const order = await call<{ data: { tickets: { code: string }[] } }>(h, 1, keyOf('seller'), 'POST', '/orders',
      { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } }, { 'idempotency-key': randomUUID() });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const codes = order.body.data.tickets.map((ticket) => ticket.code);
    expect(codes).toHaveLength(TICKETS);

    for (const [direction, refusal, result] of [['in', 'ALREADY_CHECKED_IN', 'admitted'], ['out', 'NOT_CHECKED_IN', 'left']] as const) {
      const answers = await storm(codes, direction);
      expect(answers.filter((a) => a.status >= 500 || a.status === 0).map((a) => [a.process, a.status, a.body])).toEqual([]);
      for (const [n, tries] of byCode(answers, codes).entries()) {
        const accepted = tries.filter((a) => a.status === 201);
        expect(accepted.map((a) => [a.body.data?.result, a.body.data?.ticket.code]), `${direction} ${codes[n]}`).toEqual([[result, codes[n]]]);
        for (const refused of tries.filter((a) => a.status !== 201)) {
          expect([refused.status, refused.body.error?.type, refused.body.error?.code]).toEqual([409, 'CONFLICT_ERROR', refusal]);
        }
      }
      // what is stored agrees: one check-in per ticket and direction, presence as the last one left it
      const stored = await query<{ direction: string; n: string }>('SELECT direction, COUNT(*) AS n FROM checkins WHERE ticket_code = ANY($1::text[]) GROUP BY direction ORDER BY direction', [codes]);
      expect(stored.map((row) => [row.direction, Number(row.n)])).toEqual(direction === 'in' ? [['in', TICKETS]] : [['in', TICKETS], ['out', TICKETS]]);
      const presence = await query<{ inside: number; n: string }>('SELECT inside, COUNT(*) AS n FROM ticket_presence WHERE ticket_code = ANY($1::text[]) GROUP BY inside', [codes]);
      expect(presence.map((row) => [row.inside, Number(row.n)])).toEqual([[direction === 'in' ? 1 : 0, TICKETS]]);
      for (const index of [0, 1, 2]) {
        const counts = await call<{ data: Record<string, number> }>(h, index, keyOf('seller'), 'GET', `/occurrences/${FLOOR.occurrenceId}/checkins`);
        expect(counts.status).toBe(200);
        expect(counts.body.data, `process ${index}`).toMatchObject({ admitted: TICKETS, inside: direction === 'in' ? TICKETS : 0, sold: TICKETS });
      }
    }
  });

  it('two terminals\' offline batches naming the same tickets in opposite orders, at once on two processes: both recorded, no deadlock', { timeout: 60_000 }, async () => {
    const h = started();
    const deadlocks = async (): Promise<number> =>
      Number((await query<{ n: string }>('SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()'))[0]?.n ?? 0);
    const before = await deadlocks();
    for (let round = 0; round < 10; round++) {
      const codes = Array.from({ length: 40 }, madeCode);
      const at = new Date(Date.now() - 60_000 + round).toISOString();
      const batch = (order: readonly string[], gate: string) =>
        ({ checkins: order.map((code) => ({ id: randomUUID(), code, occurrenceId: FLOOR.occurrenceId, direction: 'in', gate, at })) });
      const answers = await Promise.all([
        call<{ data: { results: { recorded: boolean }[] } }>(h, 0, keyOf('gate-0'), 'POST', '/hub/checkins/import', batch(codes, 'A')),
        call<{ data: { results: { recorded: boolean }[] } }>(h, 1, keyOf('gate-1'), 'POST', '/hub/checkins/import', batch([...codes].reverse(), 'B')),
      ]);
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.data.results.filter((one) => one.recorded)).toHaveLength(codes.length);
      }
      const stored = await query<{ n: string }>('SELECT COUNT(*) AS n FROM checkins WHERE ticket_code = ANY($1::text[])', [codes]);
      expect(Number(stored[0]?.n)).toBe(2 * codes.length);
    }
    // PostgreSQL counts every deadlock it broke (a retried one included): none. A backend reports its counts when it
    // goes idle, at most once a second: a deadlock of the last round shows after that (each one also costs the
    // deadlock_timeout, 1 s, so a regression deadlocks in many rounds and is counted)
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await deadlocks()).toBe(before);
  });
});
