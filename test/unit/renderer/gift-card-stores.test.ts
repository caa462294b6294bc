import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../renderer/src/api/client';
import { setClient } from '../../../renderer/src/api/service';
import type { Order } from '../../../renderer/src/api/types';
import { cartStore, type TicketRequest } from '../../../renderer/src/stores/cart';
import { checkoutStore } from '../../../renderer/src/stores/checkout';
import { giftCardBalanceStore } from '../../../renderer/src/stores/gift-card-balance';
import { giftCardPaymentStore } from '../../../renderer/src/stores/gift-card-payment';
import { startTestEngine, type TestEngine } from '../../helpers/engine';

/**
 * The gift-card stores against a real engine (issue #24): the quote asked for each change (a card added or
 * removed, the cart repriced) and shown as the engine answers it; the checkout sending the same cards; the
 * balance check. Only the client's fetch is wrapped, to record what was sent; nothing is mocked.
 */

const standing = (quantity: number): TicketRequest => ({ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity });
const eur = (amount: number) => ({ amount, currency: 'EUR' });

interface Seen {
  method: string;
  path: string;
  body: unknown;
  status: number;
}
const seen: Seen[] = [];
const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  seen.push({
    method: init?.method ?? 'GET',
    path: url.pathname.replace(/^\/api\/v3/, ''),
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    status: response.status,
  });
  return response;
};

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

beforeEach(() => {
  setClient(createClient({ baseUrl: `${engine.url}/api/v3`, apiKey: engine.keys.admin, language: () => 'en', fetch: recordingFetch, sleep: () => Promise.resolve() }));
  cartStore.setState({ cart: null, busy: false, error: null, expired: false, currency: undefined });
  checkoutStore.setState({ phase: 'idle', challenge: null, order: null, error: null, last: null });
  giftCardPaymentStore.getState().reset();
  giftCardBalanceStore.getState().cleared();
  seen.length = 0;
});

/** A gift card of `amount` minor units sold through the API: its code. */
async function soldGiftCard(priceOptionId: 'gift-25' | 'gift-50' | 'gift-100'): Promise<string> {
  const cart = await engine.request<{ data: { id: string; total: unknown } }>('POST', '/carts', {
    body: { items: [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId, quantity: 1 }] },
  });
  const order = await engine.request<{ data: Order }>('POST', '/orders', {
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } },
  });
  const code = order.body.data.giftCards[0]?.code;
  if (!code) throw new Error(`no gift card sold: ${JSON.stringify(order.body)}`);
  return code;
}

const quotes = () => seen.filter((request) => request.method === 'POST' && request.path.endsWith('/gift-card-quote'));

describe('gift-card payment store', () => {
  it('each card entered asks the engine with every card so far; the quote is the engine’s answer', async () => {
    const [first, second] = [await soldGiftCard('gift-25'), await soldGiftCard('gift-25')];
    await cartStore.getState().ticketsChosen([standing(2)]);
    expect(await giftCardPaymentStore.getState().codeEntered(` ${first} `)).toBe(true);
    expect(giftCardPaymentStore.getState().quote).toEqual({ parts: [{ code: first, amount: eur(2500), balance: eur(2500), balanceAfter: eur(0) }], remaining: eur(5300) });
    expect(await giftCardPaymentStore.getState().codeEntered(second)).toBe(true);
    expect(giftCardPaymentStore.getState().quote?.remaining).toEqual(eur(2800));
    expect(quotes().map((request) => request.body)).toEqual([{ giftCards: [{ code: first }] }, { giftCards: [{ code: first }, { code: second }] }]);
    // the same card scanned again (another case) is one card: nothing asked
    expect(await giftCardPaymentStore.getState().codeEntered(first.toLowerCase())).toBe(true);
    expect(quotes()).toHaveLength(2);
    // removed: asked again without it
    await giftCardPaymentStore.getState().cardRemoved(first);
    expect(giftCardPaymentStore.getState().codes).toEqual([second]);
    expect(giftCardPaymentStore.getState().quote?.remaining).toEqual(eur(5300));
  });

  it('an unknown code is refused with the engine’s error; the cards entered before stay', async () => {
    const code = await soldGiftCard('gift-25');
    await cartStore.getState().ticketsChosen([standing(1)]);
    await giftCardPaymentStore.getState().codeEntered(code);
    expect(await giftCardPaymentStore.getState().codeEntered('NOSUCHCARD0000000000')).toBe(false);
    const state = giftCardPaymentStore.getState();
    expect([state.error?.status, state.error?.code]).toEqual([404, 'GIFT_CARD_NOT_FOUND']);
    expect(state.codes).toEqual([code]);
    expect(state.quote?.remaining).toEqual(eur(1400));
  });

  it('a repriced cart (an extra added) is quoted again', async () => {
    const code = await soldGiftCard('gift-50');
    await cartStore.getState().ticketsChosen([standing(1)]);
    await giftCardPaymentStore.getState().codeEntered(code);
    expect(giftCardPaymentStore.getState().quote?.remaining).toEqual(eur(0));
    await cartStore.getState().extraAdded('parking');
    await expect.poll(() => giftCardPaymentStore.getState().quote?.remaining).toEqual(eur(0)); // €39 + €8 still within €50
    await cartStore.getState().extraAdded('tshirt');
    await expect.poll(() => giftCardPaymentStore.getState().quote?.remaining).toEqual(eur(2200)); // €72 − €50
    expect(quotes().length).toBeGreaterThanOrEqual(3);
  });

  it('a new cart starts without the cards of the last one', async () => {
    const code = await soldGiftCard('gift-25');
    await cartStore.getState().ticketsChosen([standing(1)]);
    await giftCardPaymentStore.getState().codeEntered(code);
    await cartStore.getState().ticketsChosen([standing(2)]);
    expect(giftCardPaymentStore.getState()).toMatchObject({ codes: [], quote: null });
  });
});

describe('checkout with gift cards', () => {
  it('cash pays what the cards leave: the order carries each part', async () => {
    const code = await soldGiftCard('gift-25');
    await cartStore.getState().ticketsChosen([standing(2)]);
    await giftCardPaymentStore.getState().codeEntered(code);
    await checkoutStore.getState().cashPaid();
    const order = checkoutStore.getState().order;
    expect(order?.payment).toMatchObject({ method: 'cash', amount: eur(5300), giftCards: [{ amount: eur(2500) }] });
    const post = seen.find((request) => request.path === '/orders');
    expect(post?.body).toMatchObject({ payment: { method: 'cash', giftCards: [{ code }] } });
  });

  it('cards that cover it all: method giftCard, nothing charged', async () => {
    const code = await soldGiftCard('gift-100');
    await cartStore.getState().ticketsChosen([standing(1)]);
    await giftCardPaymentStore.getState().codeEntered(code);
    await checkoutStore.getState().giftCardPaid();
    expect(checkoutStore.getState().order?.payment).toMatchObject({ method: 'giftCard', amount: eur(3900), giftCards: [{ amount: eur(3900) }] });
  });

  it('a declined card for the rest leaves the gift card whole and still entered', async () => {
    const code = await soldGiftCard('gift-25');
    await cartStore.getState().ticketsChosen([standing(1)]);
    await giftCardPaymentStore.getState().codeEntered(code);
    await checkoutStore.getState().cardPaid('tok_declined');
    expect(checkoutStore.getState().error?.code).toBe('PAYMENT_DECLINED');
    expect(giftCardPaymentStore.getState().codes).toEqual([code]);
    const card = await engine.request<{ data: { balance: unknown } }>('GET', `/gift-cards/${code}`);
    expect(card.body.data.balance).toEqual(eur(2500));
  });
});

describe('gift-card balance store', () => {
  it('checked(code) shows the engine’s card; an unknown code its error', async () => {
    const code = await soldGiftCard('gift-50');
    await giftCardBalanceStore.getState().checked(code);
    expect(giftCardBalanceStore.getState().card).toMatchObject({ code, balance: eur(5000), initial: eur(5000), status: 'active', transactions: [] });
    await giftCardBalanceStore.getState().checked('NOSUCHCARD0000000000');
    expect(giftCardBalanceStore.getState()).toMatchObject({ card: null, error: { code: 'GIFT_CARD_NOT_FOUND' } });
  });
});
