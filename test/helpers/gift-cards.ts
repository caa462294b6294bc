import { expect } from 'vitest';
import { concert, createCart, giftCard, type Cart, type Money } from './cart-assertions';
import type { ApiResponse, ErrorEnvelope, TestEngine } from './engine';
import { card, cash, checkout, orderOf, placeOrder, type Order, type PaymentRequest } from './orders';

/**
 * Gift cards as payment (contract §13, the shared design of issue #24) as the tests read them: the balance
 * resource, the `payment.giftCards` request, and helpers to sell a card and read it back. The one module of
 * gift-card helpers: the API tests use it, and the terminal rig (test/sync/gift-card-helpers.ts) builds on it.
 */

export interface GiftCardTransaction {
  at: string;
  orderId: string;
  amount: Money;
}

/** GET /api/v3/gift-cards/{code} under `data` */
export interface GiftCardView {
  code: string;
  currency: string;
  initial: Money;
  balance: Money;
  status: 'active' | 'void';
  transactions: GiftCardTransaction[];
}

export interface GiftCardPart {
  code: string;
  amount?: Money;
}

export type GiftPayment =
  | { method: 'giftCard'; giftCards?: GiftCardPart[]; token?: string; tendered?: Money }
  | { method: 'card'; giftCards?: GiftCardPart[]; token?: string; authenticationResult?: string }
  | { method: 'cash'; giftCards?: GiftCardPart[]; tendered?: Money };

/** The order's payment as the design has it: what `method` took, and each card's part. */
export interface SplitPaymentView {
  method: 'card' | 'cash' | 'external' | 'none' | 'giftCard';
  status: string;
  amount: Money;
  tendered?: Money;
  change?: Money;
  reference?: string;
  /** each card's part; `balanceAfter` (the card's balance right after this order) is the engine's addition */
  giftCards?: { code: string; amount: Money; balanceAfter?: Money }[];
}

/** The parts of an order's payment as the design names them: code and amount, in the order given. */
export const partsOf = (payment: SplitPaymentView): { code: string; amount: Money }[] =>
  (payment.giftCards ?? []).map(({ code, amount }) => ({ code, amount }));

export type SplitOrder = Omit<Order, 'payment'> & { payment: SplitPaymentView };

/** A well-formed code (20 characters of Crockford base32) that no card has: a different one for each `i`. */
export const unknownCode = (i: number): string => `ZZZZZZZZZZZZ${String(i).padStart(8, '0')}`;

/** gift-card parts in EUR: `[code]` takes what it can, `[code, amount]` that amount */
export const parts = (...cards: Array<[string, number?]>): GiftCardPart[] =>
  cards.map(([code, amount]) => ({ code, ...(amount !== undefined && { amount: { amount, currency: 'EUR' } }) }));

/** POST /orders with a gift-card payment (a fresh idempotency key unless one is given). */
export function payWithGiftCards(
  engine: TestEngine,
  cartId: string,
  expectedTotal: Money,
  payment: GiftPayment,
  options: { idempotencyKey?: string; apiKey?: string } = {},
): Promise<ApiResponse> {
  return checkout(engine, cartId, expectedTotal, payment, options);
}

/** GET /gift-cards/{code}, raw (the code is sent as given, path-encoded). */
export function getGiftCard(engine: TestEngine, code: string, key?: string): Promise<ApiResponse<{ data: GiftCardView } & ErrorEnvelope>> {
  return engine.request('GET', `/gift-cards/${encodeURIComponent(code)}`, key === undefined ? {} : { key });
}

/**
 * The card's resource, expecting 200, without the ledger rule (a checkout in progress holds a part that is out
 * of the balance but not yet a transaction).
 */
export async function readGiftCard(engine: TestEngine, code: string, key?: string): Promise<GiftCardView> {
  const response = await getGiftCard(engine, code, key);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const view = (response.body as { data?: GiftCardView }).data;
  if (view === undefined) throw new Error(`GET /gift-cards/${code} answers no card under data: ${JSON.stringify(response.body)}`);
  return view;
}

/** The card's resource, expecting 200, with the ledger rule checked: balance = initial + Σ transactions, never below 0. */
export async function giftCardOf(engine: TestEngine, code: string, key?: string): Promise<GiftCardView> {
  const view = await readGiftCard(engine, code, key);
  expectLedger(view);
  return view;
}

/** balance.amount === initial.amount + Σ transactions[].amount.amount, all in the card's currency, never negative. */
export function expectLedger(view: GiftCardView): void {
  const text = JSON.stringify(view);
  expect(view.initial.currency, text).toBe(view.currency);
  expect(view.balance.currency, text).toBe(view.currency);
  let sum = view.initial.amount;
  for (const entry of view.transactions) {
    expect(entry.amount.currency, text).toBe(view.currency);
    expect(Number.isInteger(entry.amount.amount), text).toBe(true);
    sum += entry.amount.amount;
  }
  expect(view.balance.amount, text).toBe(sum);
  expect(view.balance.amount, text).toBeGreaterThanOrEqual(0);
}

/** The balance in minor units, with the ledger rule checked (giftCardOf). */
export async function balanceOf(engine: TestEngine, code: string): Promise<number> {
  return (await giftCardOf(engine, code)).balance.amount;
}

/** The balance in minor units, expecting 200, without the ledger rule (readGiftCard): also a terminal's or a hub's. */
export async function readBalance(engine: TestEngine, code: string): Promise<number> {
  return (await readGiftCard(engine, code)).balance.amount;
}

/**
 * Sells one gift card of the demo catalog (gift-25, gift-50, gift-100) in a gift-card cart paid by card, or the
 * payment given, and answers its code and the order that issued it.
 */
export async function sellGiftCard(
  engine: TestEngine,
  priceOptionId: GiftPriceOption = 'gift-50',
  currency?: string,
  payment: PaymentRequest = card(),
): Promise<{ code: string; order: Order }> {
  const cart = await createCart(engine, [giftCard(priceOptionId)], currency);
  const order = await placeOrder(engine, cart.id, cart.total, payment);
  const code = order.giftCards[0]?.code;
  if (code === undefined) throw new Error(`the gift-card order issued no card: ${JSON.stringify(order)}`);
  return { code, order };
}

/** The gift cards of the demo catalog. */
export type GiftPriceOption = 'gift-25' | 'gift-50' | 'gift-100';

/** Buys a gift card of the demo catalog with cash and answers its code and the order. */
export function buyGiftCard(engine: TestEngine, priceOptionId: GiftPriceOption = 'gift-50'): Promise<{ code: string; order: Order }> {
  return sellGiftCard(engine, priceOptionId, undefined, cash());
}

/** A ticket cart of `quantity` standing places at the demo concert. */
export async function ticketCart(engine: TestEngine, quantity = 2): Promise<Cart> {
  return createCart(engine, [concert(quantity)]);
}

/** The split order of a 201 answer. */
export function splitOrderOf(response: ApiResponse, status = 201): SplitOrder {
  orderOf(response, status);
  return (response.body as { data: SplitOrder }).data;
}
