import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { parts, payWithGiftCards, sellGiftCard, splitOrderOf } from '../helpers/gift-cards';
import { journalEntries, recomputedHash, verifyJournal, ZERO_HASH, type JournalEntry } from '../helpers/journal';
import { card, cash, checkout, eur, expectError, placeOrder } from '../helpers/orders';

/**
 * The journal (contract §14, issue #25) through the API, on both databases: every sale and cancellation made on
 * this engine is one entry written with it, chained by hash; GET /journal pages it, GET /journal/verify checks it.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

const entriesAfter = async (seq: number): Promise<JournalEntry[]> => (await journalEntries(engine)).filter((entry) => entry.seq > seq);
const lastSeq = async (): Promise<number> => (await journalEntries(engine)).at(-1)?.seq ?? 0;

describe('the journal', () => {
  it('starts empty and verifies', async () => {
    const page = await engine.request<{ data: unknown[]; nextAfter?: number }>('GET', '/journal');
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ data: [] });
    expect(await verifyJournal(engine)).toEqual({ ok: true, entries: 0, head: ZERO_HASH });
  });

  it('records a cash sale: amount, payments by method, the event with its tickets, baseTotal, no shift; hashed as the contract says', async () => {
    const cart = await createCart(engine, [concert(2)]);
    const order = await placeOrder(engine, cart.id, cart.total, cash(eur(10_000)));
    const [entry, ...more] = await entriesAfter(0);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ seq: 1, kind: 'order', ref: order.id, amount: order.total, prevHash: ZERO_HASH });
    expect(entry?.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(entry?.data).toEqual({
      shiftId: null,
      orderId: order.id,
      currency: 'EUR',
      total: order.total,
      baseTotal: order.total,
      // what was paid in cash, not what was tendered
      payments: [{ method: 'cash', amount: order.total }],
      events: [{ eventId: 'midnight-brass', name: expect.any(String) as string, tickets: 2, total: order.total }],
    });
    expect(entry && recomputedHash(entry)).toBe(entry?.hash);
    expect(await verifyJournal(engine)).toEqual({ ok: true, entries: 1, head: entry?.hash });
  });

  it('records a sale in another currency at its own amount, with baseTotal in the location\'s base currency', async () => {
    const before = await lastSeq();
    const cart = await createCart(engine, [concert(1)], 'USD');
    const inBase = await engine.request<{ data: { total: { amount: number; currency: string } } }>('GET', `/carts/${cart.id}?currency=EUR`);
    expect(inBase.status).toBe(200);
    const order = await placeOrder(engine, cart.id, cart.total, card());
    const [entry] = await entriesAfter(before);
    expect(order.total.currency).toBe('USD');
    expect(entry).toMatchObject({ kind: 'order', ref: order.id, amount: order.total });
    expect(entry?.data).toMatchObject({ currency: 'USD', total: order.total, baseTotal: inBase.body.data.total, payments: [{ method: 'card', amount: order.total }] });
    expect(entry?.data.events).toEqual([expect.objectContaining({ tickets: 1, total: inBase.body.data.total })]);
  });

  it('records a gift-card purchase with no event, and a split payment part by part', async () => {
    const before = await lastSeq();
    const { code, order: bought } = await sellGiftCard(engine, 'gift-25', undefined, cash());
    const cart = await createCart(engine, [concert(1)]);
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'cash', giftCards: parts([code]) }));
    const [purchase, split, ...more] = await entriesAfter(before);
    expect(more).toEqual([]);
    expect(purchase).toMatchObject({ kind: 'order', ref: bought.id, data: { events: [], payments: [{ method: 'cash', amount: eur(2500) }], baseTotal: eur(2500) } });
    expect(split).toMatchObject({ kind: 'order', ref: order.id, amount: eur(3900) });
    expect(split?.data.payments).toEqual([{ method: 'giftCard', amount: eur(2500) }, { method: 'cash', amount: eur(1400) }]);
    expect(split?.data.events).toEqual([expect.objectContaining({ tickets: 1, total: eur(3900) })]);
    // the chain continues from the previous entry
    expect(split?.prevHash).toBe(purchase?.hash);
  });

  it('records a cancellation with its refunds by method, once; a failed checkout records nothing', async () => {
    const { code } = await sellGiftCard(engine, 'gift-25', undefined, cash());
    const cart = await createCart(engine, [concert(2)]);
    const order = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'card', token: 'tok_visa', giftCards: parts([code]) }));
    const before = await lastSeq();
    const cancelled = await engine.request('POST', `/orders/${order.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect((await engine.request('POST', `/orders/${order.id}/cancel`)).status).toBe(200);
    const declinedCart = await createCart(engine, [concert(1)]);
    expectError(await checkout(engine, declinedCart.id, declinedCart.total, card('tok_declined')), 402, 'PAYMENT_DECLINED');
    const [entry, ...more] = await entriesAfter(before);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ kind: 'cancellation', ref: order.id, amount: eur(7800) });
    expect(entry?.data).toEqual({
      shiftId: null,
      orderId: order.id,
      refunds: [{ method: 'giftCard', amount: eur(2500) }, { method: 'card', amount: eur(5300) }],
      baseTotal: eur(7800),
    });
    const all = await journalEntries(engine);
    for (const one of all) expect(recomputedHash(one), `entry ${one.seq}`).toBe(one.hash);
    expect(await verifyJournal(engine)).toEqual({ ok: true, entries: all.length, head: all.at(-1)?.hash });
  });

  it('pages with after and limit, and nextAfter while more follow', async () => {
    const all = await journalEntries(engine);
    expect(all.length).toBeGreaterThanOrEqual(5);
    const first = await engine.request<{ data: JournalEntry[]; nextAfter?: number }>('GET', '/journal?limit=2');
    expect(first.body.data.map((entry) => entry.seq)).toEqual([1, 2]);
    expect(first.body.nextAfter).toBe(2);
    const next = await engine.request<{ data: JournalEntry[]; nextAfter?: number }>('GET', `/journal?after=2&limit=${all.length - 2}`);
    expect(next.body.data.map((entry) => entry.seq)).toEqual(all.slice(2).map((entry) => entry.seq));
    expect(next.body.nextAfter).toBeUndefined();
    expect((await engine.request<{ data: JournalEntry[] }>('GET', `/journal?after=${all.length}`)).body).toEqual({ data: [] });
    expect(all.map((entry) => entry.seq)).toEqual(all.map((_, i) => i + 1));
  });

  it('refuses bad paging in the error envelope, and every key without admin', async () => {
    for (const query of ['after=abc', 'after=-1', 'after=1.5', 'limit=0', 'limit=1001', 'limit=x', 'other=1']) {
      const answer = await engine.request<{ error: { type: string } }>('GET', `/journal?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.type, query).toBe('INVALID_REQUEST_ERROR');
    }
    expect((await engine.request('GET', '/journal?limit=1000')).status).toBe(200);
    const staff = await engine.createKey(['orders:read', 'orders:write', 'orders:any']);
    expectError(await engine.request('GET', '/journal', { key: staff }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await engine.request('GET', '/journal/verify', { key: staff }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await engine.request('GET', '/journal', { key: null }), 401, 'INVALID_API_KEY');
  });
});

describe('the bench-only journal option', () => {
  it('journal: false (the programmatic API only) sells and cancels without entries', async () => {
    const bench = await startTestEngine({ journal: false });
    try {
      const cart = await createCart(bench, [concert(1)]);
      const order = await placeOrder(bench, cart.id, cart.total, cash());
      expect((await bench.request('POST', `/orders/${order.id}/cancel`)).status).toBe(200);
      expect(await journalEntries(bench)).toEqual([]);
      expect(await verifyJournal(bench)).toEqual({ ok: true, entries: 0, head: ZERO_HASH });
    } finally {
      await bench.close();
    }
  });
});
