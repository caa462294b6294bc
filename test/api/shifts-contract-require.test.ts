import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineOptions } from '../../engine/start';
import { concert, createCart, giftCard } from '../helpers/cart-assertions';
import { onPostgres, startTestEngine, TEST_OWNER, withStore, type TestEngine } from '../helpers/engine';
import { giftCardOf, parts, payWithGiftCards, sellGiftCard, splitOrderOf } from '../helpers/gift-cards';
import { createTestDatabase } from '../helpers/postgres';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';
import { card, cash, checkout, eur, expectError, orderOf, type Order } from '../helpers/orders';
import { base, closeShift, openShift, postCancel, reportOf, sell, type Shift } from '../helpers/shifts-contract';
import { readJournal } from '../helpers/journal-contract';

/**
 * Contract §14: `serve --require-shift` refuses a cash checkout (the cash remainder of a gift-card split too) or a
 * cash refund with no open shift — 409 SHIFT_NOT_OPEN, checked before anything is charged — while card sales, gift
 * cards alone and card refunds go on. Through startEngine's option (as `serve` passes its flags) and through the
 * real `serve --require-shift` process.
 */

/** the serve flag as startEngine takes it (the design's name, `requireShift`) */
const requireShift: Partial<EngineOptions> & { requireShift: boolean } = { requireShift: true };

let engine: TestEngine;
let giftCode = '';
beforeAll(async () => {
  engine = await startTestEngine(requireShift);
  ({ code: giftCode } = await sellGiftCard(engine, 'gift-50'));
});
afterAll(async () => {
  await engine.close();
});

const orderStatus = async (orderId: string): Promise<string> => {
  const response = await engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.status;
};

describe('§14 --require-shift with no shift open', () => {
  it('a cash checkout answers 409 SHIFT_NOT_OPEN, writes nothing, and the same cart then pays by card', async () => {
    const journalBefore = (await readJournal(engine)).length;
    const cart = await createCart(engine, [concert(1)]);
    expectError(await checkout(engine, cart.id, cart.total, cash()), 409, 'SHIFT_NOT_OPEN');
    expectError(await checkout(engine, cart.id, cart.total, cash(eur(5000))), 409, 'SHIFT_NOT_OPEN');
    expect((await readJournal(engine)).length).toBe(journalBefore);
    orderOf(await checkout(engine, cart.id, cart.total, card()));
  });

  it('a gift card bought with cash is a cash checkout too: 409 SHIFT_NOT_OPEN', async () => {
    const cart = await createCart(engine, [giftCard('gift-25')]);
    expectError(await checkout(engine, cart.id, cart.total, cash()), 409, 'SHIFT_NOT_OPEN');
  });

  it('the cash remainder of a gift-card split answers 409 SHIFT_NOT_OPEN before the card is charged', async () => {
    const cart = await createCart(engine, [concert(1)]);
    expectError(await payWithGiftCards(engine, cart.id, cart.total, { method: 'cash', giftCards: parts([giftCode, 1000]) }), 409, 'SHIFT_NOT_OPEN');
    const view = await giftCardOf(engine, giftCode);
    expect(view.balance).toEqual(eur(5000));
    expect(view.transactions).toEqual([]);
  });

  it('card sales, a gift card paying the whole total and a gift card with a card remainder go through', async () => {
    expect((await sell(engine, card())).status).toBe('confirmed');
    const small = await createCart(engine, [concert(1)]);
    splitOrderOf(await payWithGiftCards(engine, small.id, small.total, { method: 'card', token: 'tok_visa', giftCards: parts([giftCode, 1000]) }));
    const { code: other } = await sellGiftCard(engine, 'gift-100');
    const whole = await createCart(engine, [concert(1)]);
    splitOrderOf(await payWithGiftCards(engine, whole.id, whole.total, { method: 'giftCard', giftCards: parts([other]) }));
  });

  it('cancelling a card order (a card refund) goes through', async () => {
    const order = await sell(engine, card());
    const response = await postCancel(engine, order.id);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(await orderStatus(order.id)).toBe('cancelled');
  });
});

describe('§14 --require-shift: a cash refund needs an open shift', () => {
  let soldInShift: Order;
  let splitInShift: Pick<Order, 'id' | 'total'>;
  let shift: Shift;

  it('with a shift open, cash sales (and a cash remainder) go through', async () => {
    shift = await openShift(engine, eur(10000));
    soldInShift = await sell(engine, cash());
    const cart = await createCart(engine, [concert(1)]);
    splitInShift = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'cash', giftCards: parts([giftCode, 500]) }));
    expect((await reportOf(engine, shift.id)).cash.sales).toEqual(base(soldInShift.total.amount + splitInShift.total.amount - 500));
  });

  it('after the close: cancelling a cash order (or one with a cash part) answers 409 SHIFT_NOT_OPEN and the order stays confirmed', async () => {
    const closed = await closeShift(engine, shift.id, eur(0));
    const journalBefore = (await readJournal(engine)).length;
    const balance = (await giftCardOf(engine, giftCode)).balance;
    expectError(await postCancel(engine, soldInShift.id), 409, 'SHIFT_NOT_OPEN');
    expectError(await postCancel(engine, splitInShift.id), 409, 'SHIFT_NOT_OPEN');
    expect(await orderStatus(soldInShift.id)).toBe('confirmed');
    expect(await orderStatus(splitInShift.id)).toBe('confirmed');
    expect((await giftCardOf(engine, giftCode)).balance).toEqual(balance);
    expect((await readJournal(engine)).length).toBe(journalBefore);
    expect((await reportOf(engine, shift.id)).shift).toMatchObject({ status: 'closed', zNumber: closed.zNumber });
  });

  it('with the next shift open the refunds go through and count in it', async () => {
    const next = await openShift(engine, eur(10000));
    for (const order of [soldInShift, splitInShift]) {
      const response = await postCancel(engine, order.id);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
    const report = await reportOf(engine, next.id);
    expect(report.cancellations.count).toBe(2);
    expect(report.cash.refunds).toEqual(base(soldInShift.total.amount + splitInShift.total.amount - 500));
    await closeShift(engine, next.id, eur(0));
  });

  it('SHIFT_NOT_OPEN in English, German and French: three messages, one code', async () => {
    const cart = await createCart(engine, [concert(1)]);
    const messages = new Set<string>();
    for (const language of ['en', 'de', 'fr']) {
      const response = await engine.request('POST', '/orders', {
        body: { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' } },
        headers: { 'idempotency-key': crypto.randomUUID(), 'accept-language': language },
      });
      messages.add(expectError(response, 409, 'SHIFT_NOT_OPEN').message);
    }
    expect(messages.size).toBe(3);
  });
});

describe('§14 without --require-shift', () => {
  it('a cash sale and a cash refund with no shift open go through', async () => {
    const plain = await startTestEngine();
    try {
      const order = await sell(plain, cash());
      expect((await postCancel(plain, order.id)).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

interface CallBody {
  data?: { id: string; total: { amount: number; currency: string } };
  error?: { code: string };
}

describe('§14 the real `serve --require-shift`', () => {
  let server: ServeProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-require-shift-'));
  let key = '';
  afterAll(async () => {
    if (server !== undefined) await kill(server, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a cash checkout with 409 SHIFT_NOT_OPEN and sells by card; with a shift open, cash sells', { timeout: 60_000 }, async () => {
    const database = onPostgres ? await createTestDatabase({ migrated: true }) : undefined;
    key = await withStore({ dataDir, database }, async (store) => (await store.repos.keys.create('till', ['admin'], { owner: TEST_OWNER })).key);
    server = await startServe(['--data', dataDir, '--rate-limit', '0', '--require-shift', ...(database === undefined ? [] : ['--database', database])], 40_000);
    const url = server.url;
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: CallBody }> => {
      const response = await fetch(`${url}/api/v3${path}`, {
        method,
        headers: { 'x-svc-api-key': key, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as CallBody };
    };
    const cart = await call('POST', '/carts', { items: [concert(1)] });
    expect(cart.status).toBe(201);
    const { id, total } = cart.body.data ?? { id: '', total: eur(0) };
    const refused = await call('POST', '/orders', { cartId: id, expectedTotal: total, payment: { method: 'cash' } });
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 409, code: 'SHIFT_NOT_OPEN' });
    expect((await call('POST', '/orders', { cartId: id, expectedTotal: total, payment: { method: 'card', token: 'tok_visa' } })).status).toBe(201);
    expect((await call('POST', '/shifts', { openingFloat: eur(0) })).status).toBe(201);
    const second = await call('POST', '/carts', { items: [concert(1)] });
    const paid = await call('POST', '/orders', { cartId: second.body.data?.id, expectedTotal: second.body.data?.total, payment: { method: 'cash' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  });
});
