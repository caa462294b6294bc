import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../renderer/src/api/client';
import { recoveryFor } from '../../../renderer/src/recovery';
import { setClient } from '../../../renderer/src/api/service';
import type { Cart, Order } from '../../../renderer/src/api/types';
import { cartStore, type TicketRequest } from '../../../renderer/src/stores/cart';
import { catalogStore } from '../../../renderer/src/stores/catalog';
import { checkoutStore, parseAction } from '../../../renderer/src/stores/checkout';
import { connectivityStore } from '../../../renderer/src/stores/connectivity';
import { ordersStore } from '../../../renderer/src/stores/orders';
import { startTestEngine, type TestEngine } from '../../helpers/engine';

/**
 * The UI's zustand stores against a real engine (its HTTP API on loopback, a fresh SQLite file): the cart
 * (spec §3–4), checkout with its Idempotency-Keys (spec §7.4, §7.6; contract §7), orders, catalog and
 * connectivity. Only the client's fetch is wrapped, to record what was sent; nothing is mocked.
 */

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const standing = (quantity: number, occurrenceId = 'brass-2027-03-12'): TicketRequest => ({
  occurrenceId,
  inventoryItemId: 'standing',
  priceOptionId: 'standing-adult',
  quantity,
});
const seat = (id: string): TicketRequest => ({ occurrenceId: 'tempest-2027-04-02', inventoryItemId: id, priceOptionId: 'stalls-full', quantity: 1 });
const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** One request a store made: method, path below /api/v3 (with query), Idempotency-Key, body, and the status it got. */
interface Seen {
  method: string;
  path: string;
  key: string | null;
  body: unknown;
  status: number;
}

const seen: Seen[] = [];
const waits: number[] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  seen.push({
    method: init?.method ?? 'GET',
    path: `${url.pathname.replace(/^\/api\/v3/, '')}${url.search}`,
    key: new Headers(init?.headers).get('idempotency-key'),
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    status: response.status,
  });
  return response;
};

/** The stores talk to this engine, recording every request; backoff waits are recorded and skipped. */
function useEngine(target: TestEngine): void {
  setClient(
    createClient({
      baseUrl: `${target.url}/api/v3`,
      apiKey: target.keys.admin,
      language: () => 'en',
      fetch: recordingFetch,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    }),
  );
}

function resetStores(): void {
  cartStore.setState({ cart: null, busy: false, error: null, expired: false, currency: undefined });
  checkoutStore.setState({ phase: 'idle', challenge: null, order: null, error: null, last: null });
  ordersStore.setState({ found: null, searched: false, busy: false, error: null, today: [] });
  catalogStore.setState({ events: [], locations: [], occurrenceId: null, inventory: null, error: null });
  connectivityStore.setState({ online: null, reconnecting: false, waiting: null, conflicts: [] });
  seen.length = 0;
  waits.length = 0;
}

/** The cart the cart store holds; fails the test when there is none. */
function heldCart(): Cart {
  const cart = cartStore.getState().cart;
  if (!cart) throw new Error(`the cart store holds no cart (error: ${cartStore.getState().error?.code ?? 'none'})`);
  return cart;
}

/** What the engine answers for a cart right now: 200 with the cart, or the error code. */
async function engineCart(target: TestEngine, cartId: string): Promise<{ status: number; cart?: Cart; code?: string }> {
  const response = await target.request<{ data?: Cart; error?: { code: string } }>('GET', `/carts/${cartId}`);
  return { status: response.status, ...(response.body.data && { cart: response.body.data }), ...(response.body.error && { code: response.body.error.code }) };
}

async function decideChallenge(target: TestEngine, reference: string, outcome: 'approve' | 'reject'): Promise<string> {
  const response = await fetch(`${target.url}/psp/challenges/${reference}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ outcome }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { authenticationResult: string; outcome: string };
  expect(body.outcome).toBe(outcome);
  return body.authenticationResult;
}

const orderPosts = () => seen.filter((request) => request.method === 'POST' && request.path === '/orders');

function finishedOrder(): Order {
  const { order, phase, error } = checkoutStore.getState();
  if (!order) throw new Error(`no order: phase ${phase}, error ${error?.code ?? 'none'}`);
  return order;
}

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

describe('cart store', () => {
  beforeEach(() => {
    resetStores();
    useEngine(engine);
  });

  it('ticketsChosen creates a cart: the engine answer, nothing computed by the UI', async () => {
    await cartStore.getState().ticketsChosen([standing(2)]);
    const state = cartStore.getState();
    expect([state.busy, state.error, state.expired]).toEqual([false, null, false]);
    const cart = heldCart();
    expect(cart.total).toEqual(eur(7800));
    expect(cart.currency).toBe('EUR');
    expect(await engineCart(engine, cart.id)).toEqual({ status: 200, cart });
    expect(seen.map((request) => [request.method, request.path, request.status])).toEqual([['POST', '/carts', 201]]);
    expect(seen[0]?.body).toEqual({ items: [standing(2)] });
  });

  it('choosing again makes a new cart naming the old one (previousCartId); the old one then answers 410', async () => {
    await cartStore.getState().ticketsChosen([standing(1)]);
    const first = heldCart();
    await cartStore.getState().ticketsChosen([standing(3)]);
    const second = heldCart();
    expect(second.id).not.toBe(first.id);
    expect(second.total).toEqual(eur(11_700));
    expect(seen.map((request) => request.body)).toEqual([
      { items: [standing(1)] },
      { items: [standing(3)], currency: 'EUR', previousCartId: first.id },
    ]);
    expect(await engineCart(engine, first.id)).toEqual({ status: 410, code: 'CART_EXPIRED' });
    expect(await engineCart(engine, second.id)).toEqual({ status: 200, cart: second });
  });

  it('ticketsChosen([]) releases the cart: DELETE, cart null, the engine answers 410 for the old id', async () => {
    await cartStore.getState().ticketsChosen([standing(1)]);
    const cart = heldCart();
    await cartStore.getState().ticketsChosen([]);
    const state = cartStore.getState();
    expect([state.cart, state.error, state.expired, state.busy]).toEqual([null, null, false, false]);
    expect(seen.map((request) => [request.method, request.path, request.status])).toEqual([
      ['POST', '/carts', 201],
      ['DELETE', `/carts/${cart.id}`, 204],
    ]);
    expect(await engineCart(engine, cart.id)).toEqual({ status: 410, code: 'CART_EXPIRED' });
  });

  it('ticketsChosen([]) without a cart sends nothing', async () => {
    await cartStore.getState().ticketsChosen([]);
    expect(cartStore.getState().cart).toBeNull();
    expect(seen).toEqual([]);
  });

  it('a refused new choice (INVENTORY_EXHAUSTED) keeps the cart held and shows the error', async () => {
    await cartStore.getState().ticketsChosen([standing(1)]);
    const cart = heldCart();
    await cartStore.getState().ticketsChosen([standing(1), { ...standing(1), inventoryItemId: 'balcony', priceOptionId: 'balcony-adult', quantity: 13 }]);
    const state = cartStore.getState();
    expect(state.cart).toEqual(cart);
    expect([state.error?.status, state.error?.code, state.error?.param]).toEqual([409, 'INVENTORY_EXHAUSTED', 'items[1].quantity']);
    expect(state.error?.details).toEqual({ availableQuantity: 12, requestedQuantity: 13, inventoryItemId: 'balcony' });
    expect(state.expired).toBe(false);
    expect(await engineCart(engine, cart.id)).toEqual({ status: 200, cart });
  });

  it('extraAdded / extraChanged / extraRemoved each replace the cart with the engine answer', async () => {
    await cartStore.getState().ticketsChosen([standing(1)]);
    const { id } = heldCart();

    await cartStore.getState().extraAdded('parking');
    const added = heldCart();
    expect(added.total).toEqual(eur(4700));
    const parking = added.items.find((item) => item.extraId === 'parking');
    expect([parking?.type, parking?.quantity, parking?.total]).toEqual(['extra', 1, eur(800)]);
    expect(await engineCart(engine, id)).toEqual({ status: 200, cart: added });

    await cartStore.getState().extraAdded('parking');
    expect(heldCart().total).toEqual(eur(5500));

    const itemId = parking?.id ?? '';
    await cartStore.getState().extraChanged(itemId, 4);
    const changed = heldCart();
    expect(changed.total).toEqual(eur(3900 + 4 * 800));
    expect(await engineCart(engine, id)).toEqual({ status: 200, cart: changed });

    await cartStore.getState().extraRemoved(itemId);
    const removed = heldCart();
    expect(removed.total).toEqual(eur(3900));
    expect(removed.items.map((item) => item.type)).toEqual(['admission']);
    expect(await engineCart(engine, id)).toEqual({ status: 200, cart: removed });
    expect(cartStore.getState().error).toBeNull();
    expect(seen.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      'POST /carts 201',
      `POST /carts/${id}/items 200`,
      `POST /carts/${id}/items 200`,
      `PATCH /carts/${id}/items/${itemId} 200`,
      `DELETE /carts/${id}/items/${itemId} 200`,
    ]);
  });

  it('extraChanged beyond maxQuantity shows the error and keeps the cart', async () => {
    await cartStore.getState().ticketsChosen([standing(1)]);
    await cartStore.getState().extraAdded('parking');
    const before = heldCart();
    const itemId = before.items.find((item) => item.extraId === 'parking')?.id ?? '';
    await cartStore.getState().extraChanged(itemId, 5);
    expect(cartStore.getState().cart).toEqual(before);
    expect(cartStore.getState().error?.status).toBe(400);
    expect(cartStore.getState().expired).toBe(false);
  });

  it('voucherApplied / voucherRemoved replace the cart; the code is trimmed; a bad code answers false with INVALID_VOUCHER', async () => {
    await cartStore.getState().ticketsChosen([standing(2)]);
    const { id } = heldCart();

    expect(await cartStore.getState().voucherApplied('  WELCOME10 ')).toBe(true);
    const discounted = heldCart();
    expect(discounted.total).toEqual(eur(7020));
    expect(discounted.vouchers).toEqual([{ code: 'WELCOME10' }]);
    expect(discounted.receiptLines.at(-1)).toMatchObject({ type: 'voucher', sign: -1, amount: eur(780) });
    expect(await engineCart(engine, id)).toEqual({ status: 200, cart: discounted });
    expect(seen.at(-1)?.body).toEqual({ code: 'WELCOME10' });

    expect(await cartStore.getState().voucherApplied('NOT-A-VOUCHER')).toBe(false);
    expect(cartStore.getState().cart).toEqual(discounted);
    const error = cartStore.getState().error;
    expect([error?.status, error?.type, error?.code]).toEqual([400, 'INVALID_REQUEST_ERROR', 'INVALID_VOUCHER']);

    await cartStore.getState().voucherRemoved('WELCOME10');
    const plain = heldCart();
    expect(plain.total).toEqual(eur(7800));
    expect(plain.vouchers).toEqual([]);
    expect(cartStore.getState().error).toBeNull();
    expect(await engineCart(engine, id)).toEqual({ status: 200, cart: plain });

    expect(await cartStore.getState().voucherApplied('FIVEOFF')).toBe(true);
    expect(heldCart().total).toEqual(eur(7300));
  });

  it('currencyChosen replaces the cart with the repriced one and remembers the currency', async () => {
    await cartStore.getState().ticketsChosen([standing(1)]);
    const { id } = heldCart();
    await cartStore.getState().currencyChosen('USD');
    const usd = heldCart();
    // 3900 × 1.0825 = 4221.75 → 4222
    expect([usd.currency, usd.total]).toEqual(['USD', { amount: 4222, currency: 'USD' }]);
    expect(cartStore.getState().currency).toBe('USD');
    expect(await engineCart(engine, id)).toEqual({ status: 200, cart: usd });

    await cartStore.getState().currencyChosen('JPY');
    // 3900 × 162.35 × 10^(0−2) = 6331.65 → 6332
    expect(heldCart().total).toEqual({ amount: 6332, currency: 'JPY' });
    expect(seen.filter((request) => request.method === 'PATCH').map((request) => request.body)).toEqual([{ currency: 'USD' }, { currency: 'JPY' }]);
  });

  it('currencyChosen("CHF"): 503 at once (no retries for a missing rate), the previous currency stays, error CURRENCY_TEMPORARILY_UNAVAILABLE', async () => {
    await cartStore.getState().ticketsChosen([standing(1)]);
    await cartStore.getState().currencyChosen('GBP');
    const gbp = heldCart();
    // 3900 × 0.8571 = 3342.69 → 3343
    expect(gbp.total).toEqual({ amount: 3343, currency: 'GBP' });
    seen.length = 0;

    await cartStore.getState().currencyChosen('CHF');
    const state = cartStore.getState();
    expect(state.currency).toBe('GBP');
    expect(state.cart).toEqual(gbp);
    expect([state.error?.status, state.error?.code]).toEqual([503, 'CURRENCY_TEMPORARILY_UNAVAILABLE']);
    expect(state.error && recoveryFor(state.error)).toBe('retry-later');
    expect([state.busy, state.expired, state.converting]).toEqual([false, false, null]);
    expect(seen.map((request) => `${request.method} ${request.status}`)).toEqual(['PATCH 503']);
    expect(waits).toEqual([]);
    expect(await engineCart(engine, gbp.id)).toEqual({ status: 200, cart: gbp });
  });

  it('a currency chosen before any cart is used to create the next cart', async () => {
    await cartStore.getState().currencyChosen('KWD');
    expect(seen).toEqual([]);
    expect(cartStore.getState().currency).toBe('KWD');
    await cartStore.getState().ticketsChosen([seat('A1')]);
    // 4500 × 0.3321 × 10^(3−2) = 14944.5 → 14945
    expect(heldCart().total).toEqual({ amount: 14_945, currency: 'KWD' });
    expect(seen[0]?.body).toEqual({ items: [seat('A1')], currency: 'KWD' });
  });

  it('released() empties the store at once, releases the hold and forgets the currency (the next sale starts in the base currency)', async () => {
    await cartStore.getState().ticketsChosen([seat('A2')]);
    const cart = heldCart();
    cartStore.setState({ currency: 'USD' });
    await cartStore.getState().released();
    const state = cartStore.getState();
    expect([state.cart, state.error, state.expired, state.currency]).toEqual([null, null, false, undefined]);
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', path: `/carts/${cart.id}`, status: 204 });
    expect(await engineCart(engine, cart.id)).toEqual({ status: 410, code: 'CART_EXPIRED' });
  });

  it('a cart released elsewhere: the next action answers 410 → expired, cart null', async () => {
    await cartStore.getState().ticketsChosen([seat('A3')]);
    const cart = heldCart();
    expect((await engine.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);
    expect(await cartStore.getState().voucherApplied('WELCOME10')).toBe(false);
    const state = cartStore.getState();
    expect([state.cart, state.error, state.expired]).toEqual([null, null, true]);
    cartStore.getState().errorDismissed();
    expect(cartStore.getState().expired).toBe(false);
  });
});

describe('cart store: a hold that runs out (engine holdSeconds 1)', () => {
  let shortHold: TestEngine;
  // the engine's clock runs ahead of the wall clock by `skew`: a hold passes when the test moves it, not after a wait
  let skew = 0;
  beforeAll(async () => {
    shortHold = await startTestEngine({ holdSeconds: 1, sweepIntervalMs: 3_600_000, now: () => Date.now() + skew });
  });
  afterAll(() => shortHold.close());
  beforeEach(() => {
    resetStores();
    useEngine(shortHold);
  });

  const pastTheHold = (cart: Cart) => {
    skew = Math.max(skew, Date.parse(cart.expiresAt) - Date.now() + 200);
  };

  it('after the hold passes, the next action sets expired true and cart null (and keeps the chosen currency)', async () => {
    await cartStore.getState().currencyChosen('USD');
    await cartStore.getState().ticketsChosen([standing(2)]);
    const cart = heldCart();
    expect(Date.parse(cart.expiresAt) - (Date.now() + skew)).toBeLessThanOrEqual(1000);
    pastTheHold(cart);
    await cartStore.getState().extraAdded('parking');
    const state = cartStore.getState();
    expect([state.cart, state.error, state.expired, state.busy, state.currency]).toEqual([null, null, true, false, 'USD']);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', path: `/carts/${cart.id}/items`, status: 410 });
  });

  it('checking out a cart whose hold passed: the cart store expires, checkout goes back to idle with no error', async () => {
    await cartStore.getState().ticketsChosen([standing(1)]);
    const cart = heldCart();
    pastTheHold(cart);
    await checkoutStore.getState().cardPaid('tok_visa');
    expect(cartStore.getState()).toMatchObject({ cart: null, expired: true });
    expect(checkoutStore.getState()).toMatchObject({ phase: 'idle', error: null, order: null, challenge: null, last: null });
    expect(orderPosts().map((request) => request.status)).toEqual([410]);
  });
});

describe('checkout store', () => {
  beforeEach(async () => {
    resetStores();
    useEngine(engine);
    await cartStore.getState().ticketsChosen([standing(2)]);
    expect(heldCart().total).toEqual(eur(7800));
    seen.length = 0;
  });

  it('3-D Secure approved: challenge from details.action, then the order under a NEW key, authenticated', async () => {
    const cart = heldCart();
    await checkoutStore.getState().cardPaid('tok_3ds');
    const challenged = checkoutStore.getState();
    expect([challenged.phase, challenged.error, challenged.order]).toEqual(['challenge', null, null]);
    const reference = challenged.challenge?.reference ?? '';
    expect(reference).toMatch(/^chl_/);
    expect(challenged.challenge).toEqual({ url: `${engine.url}/psp/challenges/${reference}`, reference });
    expect(cartStore.getState().cart).toEqual(cart);

    const authenticationResult = await decideChallenge(engine, reference, 'approve');
    await checkoutStore.getState().challengeAnswered({ outcome: 'approve', authenticationResult });
    const done = checkoutStore.getState();
    expect([done.phase, done.error, done.challenge]).toEqual(['done', null, null]);
    const order = finishedOrder();
    expect([order.cartId, order.status, order.total]).toEqual([cart.id, 'confirmed', eur(7800)]);
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', amount: eur(7800), authenticated: true });
    expect(order.tickets).toHaveLength(2);

    const posts = orderPosts();
    expect(posts.map((request) => request.status)).toEqual([402, 201]);
    const [firstKey, secondKey] = posts.map((request) => request.key);
    expect(firstKey).toMatch(UUID_V4);
    expect(secondKey).toMatch(UUID_V4);
    expect(secondKey).not.toBe(firstKey);
    expect(posts.map((request) => request.body)).toEqual([
      { cartId: cart.id, expectedTotal: eur(7800), payment: { method: 'card', token: 'tok_3ds' } },
      { cartId: cart.id, expectedTotal: eur(7800), payment: { method: 'card', token: 'tok_3ds', authenticationResult } },
    ]);
    const stored = await engine.request<{ data: Order }>('GET', `/orders/${order.id}`);
    expect(stored.body.data).toEqual(order);
  });

  it('a challenge still open when its cart goes (released, expired, replaced) is dropped: the next cart starts idle', async () => {
    await checkoutStore.getState().cardPaid('tok_3ds');
    expect(checkoutStore.getState().phase).toBe('challenge');
    await cartStore.getState().released();
    expect(checkoutStore.getState()).toMatchObject({ phase: 'idle', challenge: null, error: null, last: null });
    await cartStore.getState().ticketsChosen([standing(1)]);
    expect(heldCart().total).toEqual(eur(3900));
    expect(checkoutStore.getState()).toMatchObject({ phase: 'idle', challenge: null, error: null });
    await cartStore.getState().released(); // give the stock back for the tests after this one
  });

  it('3-D Secure rejected: the second attempt (new key) answers PAYMENT_DECLINED, phase idle, cart still held', async () => {
    const cart = heldCart();
    await checkoutStore.getState().cardPaid('tok_3ds');
    const reference = checkoutStore.getState().challenge?.reference ?? '';
    const authenticationResult = await decideChallenge(engine, reference, 'reject');
    await checkoutStore.getState().challengeAnswered({ outcome: 'reject', authenticationResult });
    const state = checkoutStore.getState();
    // (state.challenge still holds the answered challenge here; Checkout.tsx shows the dialog only in phase 'challenge')
    expect([state.phase, state.order]).toEqual(['idle', null]);
    expect([state.error?.status, state.error?.code]).toEqual([402, 'PAYMENT_DECLINED']);
    const posts = orderPosts();
    expect(posts.map((request) => request.status)).toEqual([402, 402]);
    expect(new Set(posts.map((request) => request.key)).size).toBe(2);
    expect(await engineCart(engine, cart.id)).toEqual({ status: 200, cart });
  });

  it('a challenge answered without a result (closed): back to idle, nothing sent', async () => {
    await checkoutStore.getState().cardPaid('tok_3ds');
    await checkoutStore.getState().challengeAnswered({ outcome: 'cancelled' });
    expect(checkoutStore.getState()).toMatchObject({ phase: 'idle', challenge: null, error: null, order: null });
    expect(orderPosts()).toHaveLength(1);
  });

  it('tok_declined: PAYMENT_DECLINED, phase idle, one request, the cart still held', async () => {
    const cart = heldCart();
    await checkoutStore.getState().cardPaid('tok_declined');
    const state = checkoutStore.getState();
    expect([state.phase, state.order, state.challenge]).toEqual(['idle', null, null]);
    expect([state.error?.status, state.error?.type, state.error?.code]).toEqual([402, 'PAYMENT_ERROR', 'PAYMENT_DECLINED']);
    expect(state.error && recoveryFor(state.error)).toBe('other-payment');
    expect(orderPosts().map((request) => request.status)).toEqual([402]);
    expect(cartStore.getState().cart).toEqual(cart);
    expect(await engineCart(engine, cart.id)).toEqual({ status: 200, cart });
  });

  it('after a decline, paying again uses a new key and succeeds', async () => {
    await checkoutStore.getState().cardPaid('tok_declined');
    await checkoutStore.getState().cardPaid('tok_visa');
    expect(checkoutStore.getState().phase).toBe('done');
    const posts = orderPosts();
    expect(posts.map((request) => request.status)).toEqual([402, 201]);
    expect(posts[1]?.key).not.toBe(posts[0]?.key);
  });

  it('tok_risk: RISK_CHECK_FAILED (403), not retried, recovery support', async () => {
    await checkoutStore.getState().cardPaid('tok_risk');
    const error = checkoutStore.getState().error;
    expect([error?.status, error?.code]).toEqual([403, 'RISK_CHECK_FAILED']);
    expect(error && recoveryFor(error)).toBe('support');
    expect(orderPosts().map((request) => request.status)).toEqual([403]);
    expect(checkoutStore.getState().phase).toBe('idle');
  });

  it('tok_provider_down: PAYMENT_PROVIDER_UNAVAILABLE; retried() re-sends the SAME key (each attempt is 4 requests: the client retries the 502)', async () => {
    await checkoutStore.getState().cardPaid('tok_provider_down');
    const first = checkoutStore.getState();
    expect([first.phase, first.error?.status, first.error?.type, first.error?.code]).toEqual(['idle', 502, 'API_ERROR', 'PAYMENT_PROVIDER_UNAVAILABLE']);
    const key = first.last?.key ?? '';
    expect(key).toMatch(UUID_V4);
    expect(orderPosts().map((request) => [request.status, request.key])).toEqual(Array(4).fill([502, key]));
    expect(waits).toEqual([1000, 2000, 4000]);

    await checkoutStore.getState().retried();
    const second = checkoutStore.getState();
    expect([second.phase, second.error?.code, second.last?.key]).toEqual(['idle', 'PAYMENT_PROVIDER_UNAVAILABLE', key]);
    expect(orderPosts().map((request) => [request.status, request.key])).toEqual(Array(8).fill([502, key]));
    expect(orderPosts().map((request) => request.body)).toEqual(
      Array(8).fill({ cartId: heldCart().id, expectedTotal: eur(7800), payment: { method: 'card', token: 'tok_provider_down' } }),
    );
  });

  it('retried() does nothing unless the last error was PAYMENT_PROVIDER_UNAVAILABLE', async () => {
    await checkoutStore.getState().retried();
    expect(orderPosts()).toHaveLength(0);
    await checkoutStore.getState().cardPaid('tok_declined');
    await checkoutStore.getState().retried();
    expect(orderPosts()).toHaveLength(1);
    expect(checkoutStore.getState().error?.code).toBe('PAYMENT_DECLINED');
  });

  it('after the provider was down, another card goes through under a new key', async () => {
    await checkoutStore.getState().cardPaid('tok_provider_down');
    await checkoutStore.getState().cardPaid('tok_visa');
    expect(checkoutStore.getState().phase).toBe('done');
    const keys = orderPosts().map((request) => request.key);
    expect(keys).toHaveLength(5);
    expect(keys[4]).not.toBe(keys[0]);
    expect(orderPosts().at(-1)?.status).toBe(201);
  });

  it('cashPaid({ amount, currency }): the order carries the tendered amount and the change', async () => {
    await checkoutStore.getState().cashPaid(eur(10_000));
    expect(checkoutStore.getState().phase).toBe('done');
    const order = finishedOrder();
    expect(order.payment).toMatchObject({ method: 'cash', status: 'captured', amount: eur(7800), tendered: eur(10_000), change: eur(2200) });
    expect(orderPosts().map((request) => request.body)).toEqual([
      { cartId: order.cartId, expectedTotal: eur(7800), payment: { method: 'cash', tendered: eur(10_000) } },
    ]);
  });

  it('cashPaid() without an amount: exact cash, change 0', async () => {
    await checkoutStore.getState().cashPaid();
    const order = finishedOrder();
    expect(order.payment).toMatchObject({ method: 'cash', amount: eur(7800), tendered: eur(7800), change: eur(0) });
    expect(orderPosts()[0]?.body).toEqual({ cartId: order.cartId, expectedTotal: eur(7800), payment: { method: 'cash' } });
  });

  it('cashPaid with too little: 400 INVALID_FIELD_VALUE on payment.tendered.amount, phase idle', async () => {
    await checkoutStore.getState().cashPaid(eur(5000));
    const { phase, error } = checkoutStore.getState();
    expect([phase, error?.status, error?.code, error?.param]).toEqual(['idle', 400, 'INVALID_FIELD_VALUE', 'payment.tendered.amount']);
  });

  it('EXPECTED_TOTAL_MISMATCH: the cart store is refreshed with the current total, then paying again succeeds', async () => {
    const cart = heldCart();
    const added = await engine.request('POST', `/carts/${cart.id}/items`, { body: { items: [{ extraId: 'parking', quantity: 1 }] } });
    expect(added.status).toBe(200);
    await checkoutStore.getState().cardPaid('tok_visa');
    const state = checkoutStore.getState();
    expect([state.phase, state.error?.status, state.error?.code]).toEqual(['idle', 400, 'EXPECTED_TOTAL_MISMATCH']);
    expect(heldCart().total).toEqual(eur(8600));
    expect(await engineCart(engine, cart.id)).toEqual({ status: 200, cart: heldCart() });

    await checkoutStore.getState().cardPaid('tok_visa');
    expect(finishedOrder().total).toEqual(eur(8600));
  });

  it('without a cart, paying sends nothing', async () => {
    cartStore.setState({ cart: null });
    await checkoutStore.getState().cardPaid('tok_visa');
    expect(checkoutStore.getState().phase).toBe('idle');
    expect(orderPosts()).toHaveLength(0);
  });
});

describe('parseAction', () => {
  it('reads challengeUrl and reference from the provider action JSON string', () => {
    const action = JSON.stringify({ type: 'threeDS2Challenge', challengeUrl: 'http://127.0.0.1:9/psp/challenges/chl_x', reference: 'chl_x' });
    expect(parseAction(action)).toEqual({ url: 'http://127.0.0.1:9/psp/challenges/chl_x', reference: 'chl_x' });
  });

  it.each([
    ['undefined', undefined],
    ['a number', 42],
    ['an object (not a string)', { challengeUrl: 'u', reference: 'r' }],
    ['not JSON', 'not json {'],
    ['the empty string', ''],
    ['JSON null', 'null'],
    ['a JSON string', '"threeDS2Challenge"'],
    ['a JSON array', '["u", "r"]'],
    ['no reference', '{"challengeUrl":"u"}'],
    ['no challengeUrl', '{"reference":"r"}'],
    ['a numeric challengeUrl', '{"challengeUrl":1,"reference":"r"}'],
  ])('%s → null', (_name, action) => {
    expect(parseAction(action)).toBeNull();
  });
});

describe('orders store', () => {
  let order: Order;
  beforeAll(async () => {
    resetStores();
    useEngine(engine);
    await cartStore.getState().ticketsChosen([standing(2, 'brass-2027-03-13')]);
    await checkoutStore.getState().cashPaid();
    order = finishedOrder();
    expect(order.tickets).toHaveLength(2);
  });
  beforeEach(() => {
    resetStores();
    useEngine(engine);
  });

  it("todayRequested lists today's orders, newest first, each with its show", async () => {
    await ordersStore.getState().todayRequested();
    const today = ordersStore.getState().today;
    expect(today.map((listed) => listed.id)).toContain(order.id);
    expect(today.find((listed) => listed.id === order.id)?.event).toMatchObject({ occurrenceId: 'brass-2027-03-13', location: { timeZone: 'Europe/Berlin' } });
    const times = today.map((listed) => Date.parse(listed.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The venue's day (#22): its zone from the catalog, a page of 50 orders, and the engine's totals of the day.
    expect(seen.map((request) => request.path)).toEqual(['/events', '/locations', '/orders?limit=50', expect.stringMatching(/^\/orders\/summary\?from=[^&]+&to=[^&]+$/)]);
    expect(ordersStore.getState().summary?.currencies.find((row) => row.currency === order.currency)?.orders).toBeGreaterThanOrEqual(1);
    expect(ordersStore.getState().todayMore).toBeNull();
  });

  it('lookedUp(order id) finds the order', async () => {
    await ordersStore.getState().lookedUp(`  ${order.id} `);
    const state = ordersStore.getState();
    expect([state.found?.id, state.searched, state.busy, state.error]).toEqual([order.id, true, false, null]);
    expect(state.found).toEqual(order);
    expect(seen.map((request) => request.path)).toEqual([`/orders/${encodeURIComponent(order.id)}`]);
  });

  it('lookedUp(ticket code) finds the order, in whatever case it is typed', async () => {
    const code = order.tickets[1]?.code ?? '';
    await ordersStore.getState().lookedUp(code);
    expect(ordersStore.getState().found?.id).toBe(order.id);
    ordersStore.getState().cleared();
    expect(ordersStore.getState()).toMatchObject({ found: null, searched: false, error: null });
    await ordersStore.getState().lookedUp(code.toLowerCase());
    expect(ordersStore.getState().found?.id).toBe(order.id);
    expect(seen.map((request) => request.path)).toEqual([`/orders?ticketCode=${code}`, `/orders?ticketCode=${code.toLowerCase()}`]);
  });

  it('an unknown ticket code: found null, searched true, no error', async () => {
    await ordersStore.getState().lookedUp('ZZZZZZZZZZZZZZZZZZZZ');
    expect(ordersStore.getState()).toMatchObject({ found: null, searched: true, busy: false, error: null });
  });

  it('an unknown order id (404 RESOURCE_NOT_FOUND): found null, searched true, no error', async () => {
    await ordersStore.getState().lookedUp('ord_doesnotexist00000');
    expect(seen.map((request) => request.status)).toEqual([404]);
    expect(ordersStore.getState()).toMatchObject({ found: null, searched: true, busy: false, error: null });
  });

  it('an empty query sends nothing and changes nothing', async () => {
    await ordersStore.getState().lookedUp('   ');
    expect(seen).toEqual([]);
    expect(ordersStore.getState()).toMatchObject({ found: null, searched: false });
  });

  it('cancelled → status cancelled, payment refunded, the engine agrees; cancelling again changes nothing', async () => {
    await ordersStore.getState().lookedUp(order.id);
    await ordersStore.getState().cancelled(order.id);
    const found = ordersStore.getState().found;
    expect([found?.id, found?.status, found?.payment.status]).toEqual([order.id, 'cancelled', 'refunded']);
    expect(ordersStore.getState().error).toBeNull();
    const stored = await engine.request<{ data: Order }>('GET', `/orders/${order.id}`);
    expect(stored.body.data.status).toBe('cancelled');
    await ordersStore.getState().cancelled(order.id);
    expect(ordersStore.getState().found?.status).toBe('cancelled');
    expect(ordersStore.getState().error).toBeNull();
  });

  it('cancelling an unknown order shows RESOURCE_NOT_FOUND', async () => {
    await ordersStore.getState().cancelled('ord_doesnotexist00000');
    expect(ordersStore.getState().error?.code).toBe('RESOURCE_NOT_FOUND');
    expect(ordersStore.getState().busy).toBe(false);
  });
});

describe('catalog store', () => {
  beforeEach(() => {
    resetStores();
    useEngine(engine);
  });

  it('eventsRequested loads the events', async () => {
    await catalogStore.getState().eventsRequested();
    expect(catalogStore.getState().events.map((event) => event.id)).toEqual(['midnight-brass', 'the-tempest', 'gift-card']);
    expect(catalogStore.getState().error).toBeNull();
  });

  it('occurrenceChosen loads its inventory; inventoryRefreshed(currency) reprices it; null clears it', async () => {
    await catalogStore.getState().occurrenceChosen('tempest-2027-04-09');
    const inventory = catalogStore.getState().inventory;
    expect([inventory?.occurrenceId, inventory?.currency]).toEqual(['tempest-2027-04-09', 'EUR']);
    expect(inventory?.areas.map((area) => area.id)).toEqual(['stalls', 'circle']);
    await catalogStore.getState().inventoryRefreshed('GBP');
    // 4500 × 0.8571 = 3856.95 → 3857
    expect(catalogStore.getState().inventory?.areas[0]?.priceOptions[0]?.price).toEqual({ amount: 3857, currency: 'GBP' });
    await catalogStore.getState().occurrenceChosen(null);
    expect(catalogStore.getState()).toMatchObject({ occurrenceId: null, inventory: null });
    expect(seen.map((request) => request.path)).toEqual([
      '/occurrences/tempest-2027-04-09/inventory',
      '/occurrences/tempest-2027-04-09/inventory?currency=GBP',
    ]);
  });

  it('an unknown occurrence shows RESOURCE_NOT_FOUND', async () => {
    await catalogStore.getState().occurrenceChosen('no-such-occurrence');
    expect(catalogStore.getState().error?.code).toBe('RESOURCE_NOT_FOUND');
    expect(catalogStore.getState().inventory).toBeNull();
  });
});

describe('connectivity store', () => {
  beforeEach(() => {
    resetStores();
  });

  it('online and nothing waiting to sync when a standalone engine answers its sync status', async () => {
    useEngine(engine);
    await connectivityStore.getState().checked();
    expect(connectivityStore.getState()).toMatchObject({ online: true, reconnecting: false, waiting: null, conflicts: [] });
    expect(seen.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual(['GET /sync/status 200']);
  });

  it('falls back to /health when the key may not read the sync status', async () => {
    setClient(createClient({ baseUrl: `${engine.url}/api/v3`, apiKey: engine.keys.carts, language: () => 'en', fetch: recordingFetch }));
    await connectivityStore.getState().checked();
    expect(connectivityStore.getState().online).toBe(true);
    expect(seen.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual(['GET /sync/status 403', 'GET /health 200']);
  });

  it('offline at once when nothing listens: the probe is never retried', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    let attempts = 0;
    setClient(
      createClient({
        baseUrl: `http://127.0.0.1:${port}/api/v3`,
        apiKey: 'none',
        language: () => 'en',
        fetch: (input, init) => {
          attempts += 1;
          return fetch(input, init);
        },
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
      }),
    );
    await connectivityStore.getState().checked();
    expect(connectivityStore.getState().online).toBe(false);
    expect(connectivityStore.getState().reconnecting).toBe(true); // the engine itself is away: "Reconnecting…"
    expect(attempts).toBe(1);
    expect(waits).toEqual([]);
  });
});
