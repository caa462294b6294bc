import { expect } from 'vitest';
import type { ApiResponse, ErrorEnvelope, TestEngine } from './engine';

/**
 * Shapes of cart responses (spec §2.2, contract §4) as the tests read them, the invariant every cart
 * answer must keep (contract §3), and small request helpers shared by the cart test files.
 */

export interface Money {
  amount: number;
  currency: string;
}

export interface CartItem {
  id: string;
  type: 'admission' | 'extra' | 'giftCard';
  name: string;
  quantity: number;
  unitPrice: Money;
  total: Money;
  occurrenceId?: string;
  inventoryItemId?: string;
  priceOptionId?: string;
  extraId?: string;
}

export interface ReceiptLine {
  type: string;
  label: string;
  sign: number;
  amount: Money;
}

export interface ExtraOption {
  id: string;
  name: string;
  price: Money;
  maxQuantity?: number;
}

export interface Cart {
  id: string;
  expiresAt: string;
  currency: string;
  total: Money;
  items: CartItem[];
  receiptLines: ReceiptLine[];
  vouchers: { code: string }[];
  options: { currencies: string[]; extras?: ExtraOption[] };
}

export interface ItemRequest {
  occurrenceId: string;
  inventoryItemId: string;
  priceOptionId: string;
  quantity: number;
}

export type ApiError = ErrorEnvelope['error'];

/**
 * The invariant of contract §3 on one cart answer: every amount is an integer in the cart's currency,
 * each receipt line has sign ±1 and a non-negative amount, each item's total is unit × quantity, and
 * total.amount === Σ sign × receiptLines[].amount.amount.
 */
export function expectConsistent(cart: Cart): void {
  const currency = cart.currency;
  expect(currency).toMatch(/^[A-Z]{3}$/);
  expect(cart.total.currency).toBe(currency);
  expect(Number.isInteger(cart.total.amount)).toBe(true);
  let sum = 0;
  for (const line of cart.receiptLines) {
    expect([1, -1]).toContain(line.sign);
    expect(line.amount.currency).toBe(currency);
    expect(Number.isInteger(line.amount.amount)).toBe(true);
    expect(line.amount.amount).toBeGreaterThanOrEqual(0);
    sum += line.sign * line.amount.amount;
  }
  expect(cart.total.amount).toBe(sum);
  for (const item of cart.items) {
    expect(item.unitPrice.currency).toBe(currency);
    expect(item.total.currency).toBe(currency);
    expect(item.total.amount).toBe(item.unitPrice.amount * item.quantity);
  }
  for (const extra of cart.options.extras ?? []) expect(extra.price.currency).toBe(currency);
}

/** Asserts the status, reads the cart under `data` and checks the invariant on it. */
export function cartOf(response: ApiResponse, status = 200): Cart {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const cart = (response.body as { data: Cart }).data;
  expectConsistent(cart);
  return cart;
}

/** Asserts an error answer (spec §7.1): status, code, the type that goes with the status, and `param` when given. */
export function errorOf(response: ApiResponse, status: number, code: string, param?: string): ApiError {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const error = (response.body as ErrorEnvelope).error;
  expect(error.code).toBe(code);
  expect(error.type).toBe(TYPE_OF_STATUS[status]);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  if (param !== undefined) expect(error.param).toBe(param);
  return error;
}

const TYPE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_REQUEST_ERROR',
  401: 'AUTHENTICATION_ERROR',
  403: 'PERMISSION_ERROR',
  404: 'NOT_FOUND_ERROR',
  409: 'CONFLICT_ERROR',
  410: 'RESOURCE_GONE_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** A line of the cart, found by a predicate; fails the test when there is none. */
export function itemWhere(cart: Cart, predicate: (item: CartItem) => boolean): CartItem {
  const item = cart.items.find(predicate);
  expect(item, JSON.stringify(cart.items)).toBeDefined();
  if (!item) throw new Error('no such item');
  return item;
}

export function voucherLines(cart: Cart): ReceiptLine[] {
  return cart.receiptLines.filter((line) => line.sign === -1);
}

// --- requests -------------------------------------------------------------------------------------

export const concert = (quantity: number, priceOptionId = 'standing-adult', occurrenceId = 'brass-2027-03-12'): ItemRequest => ({
  occurrenceId,
  inventoryItemId: priceOptionId.startsWith('balcony') ? 'balcony' : 'standing',
  priceOptionId,
  quantity,
});

export const seat = (seatId: string, priceOptionId = 'stalls-full', occurrenceId = 'tempest-2027-04-02'): ItemRequest => ({
  occurrenceId,
  inventoryItemId: seatId,
  priceOptionId,
  quantity: 1,
});

export const giftCard = (priceOptionId = 'gift-50', quantity = 1): ItemRequest => ({
  occurrenceId: 'gift-card',
  inventoryItemId: 'gift-card',
  priceOptionId,
  quantity,
});

export function postCart(engine: TestEngine, body: { items: ItemRequest[]; currency?: string; previousCartId?: string }): Promise<ApiResponse> {
  return engine.request('POST', '/carts', { body });
}

/** Creates a cart and expects 201 with a consistent cart. */
export async function createCart(engine: TestEngine, items: ItemRequest[], currency?: string): Promise<Cart> {
  return cartOf(await postCart(engine, { items, ...(currency !== undefined && { currency }) }), 201);
}

interface InventoryBody {
  data: {
    occurrenceId: string;
    eventId: string;
    startsAt: string;
    onSale: boolean;
    currency: string;
    areas: {
      id: string;
      priceOptions: { id: string; price: Money }[];
      inventoryItems: { id: string; capacity: number; available: number }[];
    }[];
    extras: ExtraOption[];
  };
}

/** Live `available` of one inventory item, read through GET /occurrences/{id}/inventory. */
export async function available(engine: TestEngine, occurrenceId: string, inventoryItemId: string): Promise<number> {
  const response = await engine.request('GET', `/occurrences/${occurrenceId}/inventory`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const items = (response.body as InventoryBody).data.areas.flatMap((area) => area.inventoryItems);
  const item = items.find((candidate) => candidate.id === inventoryItemId);
  expect(item, `inventory item ${inventoryItemId} of ${occurrenceId}`).toBeDefined();
  return item?.available ?? Number.NaN;
}

export type { InventoryBody };
