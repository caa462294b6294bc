import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startTestEngine, TEST_OWNER, type TestEngine } from '../helpers/engine';
import { cartOf } from '../helpers/cart-assertions';
import { readRows } from '../helpers/db-rows';
import { checkout, eur, expectError, orderOf, sleep, type Order } from '../helpers/orders';
import { readBalance, buyGiftCard, getGiftCard, ticketCart } from '../helpers/gift-cards';

/**
 * Gift cards are money (issue #24): a review's findings, each pinned by a test that failed before its fix —
 * a card's code never reaches the log, a `sync` key cannot reach this engine's own checkouts through the hub's
 * hold references, and a request cannot test codes beyond the key's unknown-code limit.
 */

let engine: TestEngine;
beforeAll(async () => {
  // the provider answers 1.5 s after it recorded the charge: a checkout stays in progress that long
  engine = await startTestEngine({ paymentAnswerDelayMs: 1500 });
});
afterAll(() => engine.close());

describe('a gift card\'s code is a secret: never in the log', () => {
  it('GET /gift-cards/{code} in any spelling, known or unknown: the code is not in the request log lines', async () => {
    const { code } = await buyGiftCard(engine);
    const spelt = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`;
    expect((await getGiftCard(engine, code)).status).toBe(200);
    expect((await getGiftCard(engine, spelt)).status).toBe(200);
    expect((await engine.request('GET', `/GIFT-CARDS/${code}`)).status).toBeLessThan(500);
    const unknown = 'ZZQQ9XW7UNKNOWN4';
    expect((await getGiftCard(engine, unknown)).status).toBe(404);
    const logs = engine.logs();
    expect(logs).toContain('/api/v3/gift-cards/[redacted]');
    for (const secret of [code, code.slice(4), unknown]) expect(logs).not.toContain(secret);
  });
});

describe('a hub\'s hold references never reach this engine\'s own payment attempts (holds are kept per key)', () => {
  it('releasing the holds of a checkout in progress by its attempt id releases nothing, and the order still takes its part from the card', async () => {
    const sync = await engine.createKey(['sync', 'orders:import'], { owner: TEST_OWNER });
    const { code } = await buyGiftCard(engine); // 5000
    const cart = await ticketCart(engine, 2); // 7800
    const paying = checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: [{ code }] });
    let attemptId: string | undefined;
    for (let i = 0; i < 100 && attemptId === undefined; i++) {
      await sleep(20);
      [attemptId] = (await readRows<{ id: string }>(engine, "SELECT id FROM payment_attempts WHERE cart_id = ? AND state = 'pending'", [cart.id])).map((row) => row.id);
    }
    if (attemptId === undefined) throw new Error('the checkout never became pending');
    const release = await engine.request<{ data: { cards: unknown[]; released: boolean } }>('POST', `/hub/gift-card-holds/${attemptId}/release`, { key: sync });
    expect(release.status).toBe(200);
    expect(release.body.data).toMatchObject({ cards: [], released: false });
    const order = orderOf(await paying);
    expect(order.payment.giftCards).toEqual([expect.objectContaining({ code, amount: eur(5000) })]);
    expect(order.payment.amount).toEqual(eur(2800));
    expect(await readBalance(engine, code)).toBe(0);
  });

  it('a hold under an attempt id of this engine is the key\'s own hold: the checkout\'s order takes nothing from the card', async () => {
    const sync = await engine.createKey(['sync', 'orders:import'], { owner: TEST_OWNER });
    const { code } = await buyGiftCard(engine);
    const cart = await ticketCart(engine, 1); // 3900
    const paying = checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa' });
    let attemptId: string | undefined;
    for (let i = 0; i < 100 && attemptId === undefined; i++) {
      await sleep(20);
      [attemptId] = (await readRows<{ id: string }>(engine, "SELECT id FROM payment_attempts WHERE cart_id = ? AND state = 'pending'", [cart.id])).map((row) => row.id);
    }
    if (attemptId === undefined) throw new Error('the checkout never became pending');
    const hold = await engine.request('POST', '/hub/gift-card-holds', { key: sync, body: { reference: attemptId, currency: 'EUR', cards: [{ code }], total: eur(3900) } });
    expect(hold.status).toBe(200);
    const order = orderOf(await paying);
    expect(order.payment.giftCards).toBeUndefined();
    expect(order.payment.amount).toEqual(eur(3900));
    // held for the sync key (its own namespace) until it releases: the order took nothing
    expect(await readBalance(engine, code)).toBe(1100);
    const released = await engine.request<{ data: { released: boolean } }>('POST', `/hub/gift-card-holds/${attemptId}/release`, { key: sync });
    expect(released.body.data.released).toBe(true);
    expect(await readBalance(engine, code)).toBe(5000);
  });
});

describe('the unknown-code throttle answers nothing beyond the limit', () => {
  it('9 unknown codes, then a checkout naming 10 more: 429 with Retry-After, not which of them is unknown', async () => {
    const key = await engine.createKey(['carts:write', 'orders:write'], { owner: TEST_OWNER });
    for (let i = 0; i < 9; i++) expectError(await getGiftCard(engine, `NOPE${i}XXXXXXXXXXX`, key), 404, 'GIFT_CARD_NOT_FOUND');
    const { code } = await buyGiftCard(engine);
    const cart = await ticketCart(engine, 1);
    const giftCards = [{ code }, ...Array.from({ length: 9 }, (_, i) => ({ code: `GUESS${i}YYYYYYYYYYY` }))];
    const answer = await checkout(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards }, { apiKey: key });
    expectError(answer, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await readBalance(engine, code)).toBe(5000);
  });
});

describe('the codes a terminal issued, imported at its hub', () => {
  const importOrder = async (key: string, order: Record<string, unknown>) => {
    const answer = await engine.request<{ data: { results: { status: number; error?: { code: string; param?: string; details?: unknown } }[] } }>('POST', '/orders/import', {
      key,
      body: { orders: [{ idempotencyKey: crypto.randomUUID(), reference: `ord_${crypto.randomUUID()}`, ...order }] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [result] = answer.body.data.results;
    if (!result) throw new Error('no import result');
    return result;
  };
  const card25 = { occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-25', quantity: 1 };

  it('a code that is a card here already: 400 INVALID_FIELD_VALUE reason taken (not a 5xx), the card untouched', async () => {
    const terminal = await engine.createKey(['sync', 'orders:import', 'orders:write', 'orders:read', 'carts:write']);
    const { code } = await buyGiftCard(engine);
    const result = await importOrder(terminal, { items: [card25], expectedTotal: eur(2500), giftCardCodes: [code.toLowerCase()] });
    expect(result).toMatchObject({ status: 400, error: { code: 'INVALID_FIELD_VALUE', param: 'orders[0].giftCardCodes[0]', details: { reason: 'taken' } } });
    expect(await readBalance(engine, code)).toBe(5000);
  });

  it('a code sent in lower case with hyphens is the card typed any way: spendable at the hub', async () => {
    const terminal = await engine.createKey(['sync', 'orders:import', 'orders:write', 'orders:read', 'carts:write']);
    const typed = `tc-${crypto.randomUUID().slice(0, 8)}-card`;
    expect((await importOrder(terminal, { items: [card25], expectedTotal: eur(2500), giftCardCodes: [typed] })).status).toBe(201);
    expect(await readBalance(engine, typed)).toBe(2500);
    expect(await readBalance(engine, typed.toUpperCase())).toBe(2500);
  });
});

describe('a hold reference is settled into one imported order only', () => {
  it('two imports naming the same held parts at once: one order takes them, the other is refused; the card is debited once', async () => {
    const terminal = await engine.createKey(['sync', 'orders:import', 'orders:write', 'orders:read', 'carts:write']);
    // a seat each: the imports do not wait for each other on one inventory row before they read the holds
    const seat = (round: number, i: number) => ({ occurrenceId: 'tempest-2027-04-09', inventoryItemId: `${'DEFG'[round] ?? 'H'}${i + 1}`, priceOptionId: 'stalls-full', quantity: 1 });
    for (let round = 0; round < 3; round++) {
      const { code } = await buyGiftCard(engine);
      const reference = `pay_${crypto.randomUUID()}`;
      const held = await engine.request('POST', '/hub/gift-card-holds', { key: terminal, body: { reference, currency: 'EUR', cards: [{ code, amount: eur(1000) }], total: eur(4500) } });
      expect(held.status).toBe(200);
      const payment = { holdReference: reference, giftCards: [{ code, amount: eur(1000) }] };
      const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => engine.request<{ data: { results: { status: number; error?: { code: string } }[] } }>('POST', '/orders/import', {
        key: terminal,
        body: { orders: [{ idempotencyKey: crypto.randomUUID(), reference: `ord_${crypto.randomUUID()}`, items: [seat(round, i)], expectedTotal: eur(4500), payment }] },
      })));
      const statuses = answers.map((answer) => answer.body.data.results[0]?.status);
      expect(statuses.filter((status) => status === 201), JSON.stringify(statuses)).toHaveLength(1);
      expect(await readBalance(engine, code)).toBe(4000);
    }
  });
});

describe.runIf(onPostgres)('the lock order: gift cards before inventory and vouchers (PostgreSQL)', () => {
  it('a cancellation waiting for a card held by a checkout holds no voucher row meanwhile', async () => {
    const { code } = await buyGiftCard(engine);
    const cart = await ticketCart(engine, 1);
    const withVoucher = cartOf(await engine.request('POST', `/carts/${cart.id}/vouchers`, { body: { code: 'FIVEOFF' } }));
    const order = orderOf(await checkout(engine, cart.id, withVoucher.total, { method: 'cash', giftCards: [{ code, amount: eur(1000) }] }));
    const client = new pg.Client({ connectionString: engine.database });
    await client.connect();
    try {
      // a checkout in its first transaction: the card locked, its voucher reservation next
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM gift_cards WHERE code = $1 FOR UPDATE', [code]);
      const cancelling = engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`);
      await sleep(500);
      await client.query("SET LOCAL lock_timeout = '300ms'");
      await client.query("UPDATE vouchers SET redeemed = redeemed WHERE code = 'FIVEOFF'");
      await client.query('ROLLBACK');
      expect((await cancelling).status).toBe(200);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
    expect(await readBalance(engine, code)).toBe(5000);
  });
});
