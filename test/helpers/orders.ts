import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { CartItem, Money, ReceiptLine } from './cart-assertions';
import { readNumber } from './db-rows';
import type { ApiResponse, ErrorEnvelope, TestEngine } from './engine';

/**
 * Shapes of the order resource (contract §4) as the tests read them, and request helpers for checkout
 * (spec §4.7, contract §5–7), GET /orders and the simulated provider's 3-D Secure challenge.
 */

export interface PaymentView {
  method: 'card' | 'cash' | 'external' | 'none' | 'giftCard';
  status: 'captured' | 'refunding' | 'refunded';
  amount: Money;
  reference?: string;
  authenticated?: boolean;
  tendered?: Money;
  change?: Money;
  refundedAt?: string;
  giftCards?: { code: string; amount: Money }[];
}

export interface Ticket {
  id: string;
  itemId: string;
  code: string;
  area?: string;
  seat?: string;
  /** the signed code its QR encodes (issue #26); absent on tickets sold before */
  signedCode?: string;
}

export interface GiftCard {
  code: string;
  itemId: string;
  value: Money;
  status: 'active' | 'void';
}

export interface Order {
  id: string;
  cartId: string;
  status: 'confirmed' | 'cancelled';
  createdAt: string;
  cancelledAt?: string;
  currency: string;
  total: Money;
  items: CartItem[];
  receiptLines: ReceiptLine[];
  payment: PaymentView;
  event?: { id: string; name: string; occurrenceId: string; startsAt: string; location: { id: string; name: string; timeZone?: string } };
  tickets: Ticket[];
  giftCards: GiftCard[];
}

export interface OrdersPage {
  data: Order[];
  nextCursor?: string;
}

export type ApiError = ErrorEnvelope['error'];

/** a gift-card part of a payment (contract §13) */
export interface GiftCardPartRequest { code: string; amount?: Money }

export type PaymentRequest =
  | { method: 'card'; token?: string; authenticationResult?: string; tendered?: Money; giftCards?: GiftCardPartRequest[] }
  | { method: 'cash'; tendered?: Money; token?: string; giftCards?: GiftCardPartRequest[] }
  | { method: 'giftCard'; giftCards?: GiftCardPartRequest[]; token?: string; tendered?: Money };

/** 20 characters of Crockford base32: digits and upper-case letters without I, L, O, U. */
export const TICKET_CODE = /^[0-9A-HJKMNP-TV-Z]{20}$/;
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

export const card = (token = 'tok_visa', authenticationResult?: string): PaymentRequest => ({
  method: 'card',
  token,
  ...(authenticationResult !== undefined && { authenticationResult }),
});

export const cash = (tendered?: Money): PaymentRequest => ({ method: 'cash', ...(tendered !== undefined && { tendered }) });

export const eur = (amount: number): Money => ({ amount, currency: 'EUR' });

/** A fresh UUID v4 idempotency key. */
export const newKey = (): string => randomUUID();

export interface CheckoutOptions {
  /** the Idempotency-Key header; a fresh UUID v4 when omitted, none when null */
  idempotencyKey?: string | null;
  /** the API key; the harness's all-scopes key when omitted, none when null */
  apiKey?: string | null;
}

/** POST /orders for a cart with the given expected total and payment. */
export function checkout(
  engine: TestEngine,
  cartId: string,
  expectedTotal: Money,
  payment: PaymentRequest = card(),
  options: CheckoutOptions = {},
): Promise<ApiResponse> {
  const idempotencyKey = options.idempotencyKey === undefined ? newKey() : options.idempotencyKey;
  return engine.request('POST', '/orders', {
    body: { cartId, expectedTotal, payment },
    headers: idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
    ...(options.apiKey !== undefined && { key: options.apiKey }),
  });
}

/** Asserts the status and reads the order under `data`. */
export function orderOf(response: ApiResponse, status = 201): Order {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const order = (response.body as { data: Order }).data;
  expect(order.id, JSON.stringify(response.body)).toMatch(/^ord_/);
  return order;
}

/** Checks a cart out with tok_visa (or the payment given) and expects 201. */
export async function placeOrder(engine: TestEngine, cartId: string, expectedTotal: Money, payment: PaymentRequest = card()): Promise<Order> {
  return orderOf(await checkout(engine, cartId, expectedTotal, payment));
}

const TYPE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_REQUEST_ERROR',
  401: 'AUTHENTICATION_ERROR',
  402: 'PAYMENT_ERROR',
  403: 'PERMISSION_ERROR',
  404: 'NOT_FOUND_ERROR',
  409: 'CONFLICT_ERROR',
  410: 'RESOURCE_GONE_ERROR',
  429: 'RATE_LIMIT_ERROR',
  500: 'API_ERROR',
  502: 'API_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** Asserts an error answer (spec §7.1–7.2): status, code, the type of that status, a message, and `param` when given. */
export function expectError(response: ApiResponse, status: number, code: string, param?: string): ApiError {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const error = (response.body as ErrorEnvelope).error;
  expect(error.code, JSON.stringify(response.body)).toBe(code);
  expect(error.type).toBe(TYPE_OF_STATUS[status]);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  if (param !== undefined) expect(error.param).toBe(param);
  return error;
}

/** The value of `Idempotent-Replayed`, or null when the answer has none. */
export const replayed = (response: ApiResponse): string | null => response.headers.get('idempotent-replayed');

/** GET /orders with a query string, read with an orders:read key. */
export async function listOrders(engine: TestEngine, query = ''): Promise<ApiResponse<OrdersPage>> {
  return engine.request<OrdersPage>('GET', `/orders${query}`, { key: engine.keys.ordersRead });
}

/** Every order of a cart, from the first page of GET /orders (200 at most). */
export async function ordersOfCart(engine: TestEngine, cartId: string): Promise<Order[]> {
  const response = await listOrders(engine, '?limit=200');
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.filter((order) => order.cartId === cartId);
}

// --- the simulated provider's 3-D Secure challenge (contract §7) ----------------------------------

export interface ChallengeAction {
  type: string;
  challengeUrl: string;
  reference: string;
}

/** Reads `details.action` of a 402 PAYMENT_AUTHENTICATION_REQUIRED: a JSON string, parsed. */
export function challengeOf(response: ApiResponse): ChallengeAction {
  const error = expectError(response, 402, 'PAYMENT_AUTHENTICATION_REQUIRED');
  const action = error.details?.action;
  expect(typeof action, JSON.stringify(error)).toBe('string');
  return JSON.parse(String(action)) as ChallengeAction;
}

/** POST /psp/challenges/{reference} (outside /api/v3): approve or reject as automation does. */
export async function decideChallenge(engine: TestEngine, reference: string, outcome: 'approve' | 'reject'): Promise<ApiResponse> {
  const response = await fetch(`${engine.url}/psp/challenges/${encodeURIComponent(reference)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ outcome }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as unknown };
}

/** Decides a challenge and returns its authenticationResult, expecting 200. */
export async function authenticationResultOf(engine: TestEngine, reference: string, outcome: 'approve' | 'reject'): Promise<string> {
  const response = await decideChallenge(engine, reference, outcome);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const result = (response.body as { authenticationResult?: unknown }).authenticationResult;
  expect(typeof result).toBe('string');
  return String(result);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits until a checkout has written its pending payment attempt — the provider is being asked — by looking
 * at the engine's database, rather than guessing how long that takes.
 */
export async function paymentUnderWay(engine: TestEngine, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await readNumber(engine, "SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'pending'") > 0) return;
    if (Date.now() > deadline) throw new Error('no payment attempt under way');
    await sleep(10);
  }
}
