import { expect } from 'vitest';
import { checksumOf } from '../../engine/legacy-v1/http/channel-auth';
import { withStore, type ApiResponse, type TestEngine } from './engine';

/**
 * The legacy v1 interface as a client sees it: channels made through the same repository the
 * `keys create-channel` command uses, requests signed with the checksum of contract §11.
 */

export interface Channel {
  id: string;
  secret: string;
}

export interface V1Money {
  value: number;
  currency: string;
  decimalPlaces: number;
}

export interface Reservation {
  reservationId: string;
  productId: string;
  aggregateReference: string;
  quantity: number;
  price: V1Money;
  total: V1Money;
}

export interface Basket {
  reference: string;
  cartId: string;
  reservations: Reservation[];
  promotions: string[];
  total: V1Money;
}

export interface V1Error {
  errorCode: string;
  message: string;
  status: number;
}

export interface ReservationRequest {
  productId: string;
  aggregateReference: string;
  quantity: number;
}

/** Makes a v1 channel in the engine's database (SQLite or PostgreSQL), through its store. */
export function createChannel(engine: TestEngine, name = 'web-shop'): Promise<Channel> {
  return withStore(engine, (store) => store.repos.channels.create(name));
}

/** Revokes a v1 channel in the engine's database, through its store. */
export async function revokeChannel(engine: TestEngine, id: string): Promise<void> {
  await withStore(engine, (store) => store.repos.channels.revoke(id));
}

export interface V1Options {
  body?: unknown;
  /** sent as is (for malformed bodies); the checksum covers it like any body */
  rawBody?: string;
  /** null sends no channel headers */
  channel?: Channel | null;
  /** overrides the computed checksum */
  checksum?: string;
  headers?: Record<string, string>;
}

export async function v1<T = unknown>(engine: TestEngine, channel: Channel, method: string, path: string, options: V1Options = {}): Promise<ApiResponse<T>> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  const signer = options.channel === undefined ? channel : options.channel;
  if (signer !== null) {
    headers['x-channel-id'] = signer.id;
    headers['x-checksum'] = options.checksum ?? checksumOf(signer.secret, method, `/api/v1${path}`, body ?? '');
  }
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const response = await fetch(`${engine.url}/api/v1${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if (text && (response.headers.get('content-type') ?? '').startsWith('application/json')) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** Asserts 200 and returns the basket under `data`, checking its money: integers, one currency, total = Σ lines ± vouchers. */
export function basketOf(response: ApiResponse, status = 200): Basket {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const basket = (response.body as { data: Basket }).data;
  for (const reservation of basket.reservations) {
    expect(reservation.total.value).toBe(reservation.price.value * reservation.quantity);
    expect(reservation.price.currency).toBe(basket.total.currency);
    expect(reservation.price.decimalPlaces).toBe(basket.total.decimalPlaces);
  }
  expect(Number.isInteger(basket.total.value)).toBe(true);
  return basket;
}

/** Asserts the exact v1 error shape `{ errorCode, message, status }` with the status also on the wire. */
export function v1ErrorOf(response: ApiResponse, status: number, errorCode: string): V1Error {
  expect({ status: response.status, body: response.body }).toMatchObject({ status, body: { errorCode, status } });
  const body = response.body as V1Error;
  expect(Object.keys(body).sort()).toEqual(['errorCode', 'message', 'status']);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return body;
}

/** the demo concert: standing adult 3900, student 2900; extras parking 800, programme 500 */
export const CONCERT = 'brass-2027-03-12';
export const ticket = (quantity: number, priceOptionId = 'standing-adult', productId = CONCERT): ReservationRequest => ({
  productId,
  aggregateReference: `${priceOptionId.startsWith('balcony') ? 'balcony' : 'standing'}:${priceOptionId}`,
  quantity,
});
export const extra = (extraId: string, quantity: number, productId = CONCERT): ReservationRequest => ({ productId, aggregateReference: `extra:${extraId}`, quantity });
