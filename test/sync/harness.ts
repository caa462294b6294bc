import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CatalogDocument } from '../../engine/contract/catalog';
import type { EngineOptions } from '../../engine/start';
import type { Cart, Money } from '../helpers/cart-assertions';
import { startTestEngine, type ApiResponse, type RequestOptions, type TestEngine } from '../helpers/engine';
import { startFaultProxy, type FaultProxy, type FaultProxyOptions } from '../helpers/fault-proxy';
import type { Order as LocalOrder, PaymentView } from '../helpers/orders';

/**
 * Two real engines on loopback — an upstream and a kiosk syncing to it — with the fault proxy between them,
 * and what the sync tests share: a catalog big enough for hundreds of sales, a varied sale through the
 * kiosk's HTTP API, waiting for the outbox to drain, and the exactly-once comparison of both sides.
 */

/** An order as either engine answers it: upstream, a synced order's payment is `external` with the local order id as reference. */
export type Order = Omit<LocalOrder, 'payment'> & { payment: Omit<PaymentView, 'method'> & { method: PaymentView['method'] | 'external' } };

export const FEST = {
  locationId: 'arena',
  eventId: 'sync-fest',
  occurrenceId: 'fest-1',
  field: { areaId: 'field', inventoryItemId: 'field', adult: 'field-adult', child: 'field-child', capacity: 5000 },
  boxes: { areaId: 'boxes', priceOptionId: 'box-seat', seats: 20 },
  vip: { areaId: 'vip', inventoryItemId: 'vip-1', priceOptionId: 'vip-pass', capacity: 1 },
  prices: { adult: 3500, child: 1500, box: 9000, vip: 25000, parking: 800 },
  extraId: 'parking',
  voucher: 'SYNC10',
} as const;

/** One venue (EUR base, USD sold), one occurrence: a general field of 5000, 20 assigned box seats, one VIP pass, an extra, a voucher. */
export function syncCatalog(prices: Partial<Record<keyof typeof FEST.prices, number>> = {}): CatalogDocument {
  const price = { ...FEST.prices, ...prices };
  const eur = (amount: number) => ({ amount, currency: 'EUR' });
  return {
    locations: [{ id: FEST.locationId, name: 'Sync Arena', currencies: ['EUR', 'USD'] }],
    exchangeRates: [{ from: 'EUR', to: 'USD', rate: '1.0825' }],
    events: [
      {
        id: FEST.eventId,
        name: 'Sync Fest',
        locationId: FEST.locationId,
        kind: 'ticket',
        extras: [{ id: FEST.extraId, name: 'Parking', price: eur(price.parking), maxQuantity: 5 }],
        occurrences: [
          {
            id: FEST.occurrenceId,
            startsAt: '2027-06-01T18:00:00Z',
            onSale: true,
            areas: [
              {
                id: FEST.field.areaId,
                name: 'Field',
                seating: 'general',
                priceOptions: [
                  { id: FEST.field.adult, name: 'Adult', price: eur(price.adult) },
                  { id: FEST.field.child, name: 'Child', price: eur(price.child) },
                ],
                inventoryItems: [{ id: FEST.field.inventoryItemId, label: 'Field', capacity: FEST.field.capacity }],
              },
              {
                id: FEST.boxes.areaId,
                name: 'Boxes',
                seating: 'assigned',
                priceOptions: [{ id: FEST.boxes.priceOptionId, name: 'Box seat', price: eur(price.box) }],
                inventoryItems: Array.from({ length: FEST.boxes.seats }, (_, i) => ({ id: `B${i + 1}`, label: `Box ${i + 1}`, capacity: 1 })),
              },
              {
                id: FEST.vip.areaId,
                name: 'VIP',
                seating: 'general',
                priceOptions: [{ id: FEST.vip.priceOptionId, name: 'VIP pass', price: eur(price.vip) }],
                inventoryItems: [{ id: FEST.vip.inventoryItemId, label: 'The one VIP pass', capacity: FEST.vip.capacity }],
              },
            ],
          },
        ],
      },
    ],
    vouchers: [{ code: FEST.voucher, percentOff: 10 }],
  };
}

/** Writes a catalog document to a file of its own (for `catalogFile` and `serve --catalog`). */
export function catalogFile(doc: CatalogDocument = syncCatalog()): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-sync-catalog-'));
  const path = join(dir, 'catalog.json');
  writeFileSync(path, JSON.stringify(doc));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The scopes the kiosk's key needs at the upstream. */
export const SYNC_SCOPES = ['catalog:read', 'carts:write', 'orders:write', 'orders:import'];

/** Fast timings for the worker: retries 20, 40, 80 … ms, an idle worker looks every 20 ms. */
export const FAST = { retryBaseMs: 20, pollMs: 20 } as const;

export interface SyncPair {
  upstream: TestEngine;
  kiosk: TestEngine;
  proxy: FaultProxy;
  syncKey: string;
  close(): Promise<void>;
}

export interface PairOptions {
  proxy: Omit<FaultProxyOptions, 'target'>;
  /** hub (default) or a plain v3 upstream */
  kind?: UpstreamKind;
  upstream?: Partial<EngineOptions>;
  kiosk?: Partial<EngineOptions>;
  /** the kiosk's worker tuning beyond FAST */
  sync?: { pullIntervalMs?: number; retryBaseMs?: number; pollMs?: number };
}

/** An upstream engine, the proxy in front of it and a kiosk engine syncing through the proxy; both import the same catalog. */
export async function startPair(options: PairOptions): Promise<SyncPair> {
  const file = catalogFile();
  // These tests are about delivery: a terminal that sells while offline and whose refusals land in the inbox.
  // So the hub grants no allocations here and the kiosk sells offline (contract §10, --offline-sales); the
  // allocation tests (allocation-*.test.ts) run terminals that sell only what a hub granted them.
  const upstream = await startTestEngine({ catalogFile: file.path, demo: false, allocations: false, ...(options.kind === 'v3' && { capabilities: false }), ...options.upstream });
  const syncKey = await upstream.createKey(SYNC_SCOPES);
  const proxy = await startFaultProxy({ target: upstream.url, ...options.proxy });
  const kiosk = await startTestEngine({
    catalogFile: file.path,
    demo: false,
    offlineSales: true,
    ...options.kiosk,
    upstream: { url: proxy.url, key: syncKey, pullIntervalMs: 60_000, ...FAST, ...options.sync },
  });
  return {
    upstream,
    kiosk,
    proxy,
    syncKey,
    async close() {
      await kiosk.close();
      await proxy.close();
      await upstream.close();
      file.remove();
    },
  };
}

// --- talking to an engine -----------------------------------------------------------------------------

export interface Api {
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

/** An Api over plain fetch, for an engine running as a child process. */
export function httpApi(baseUrl: string, key: string): Api {
  return {
    async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
      const headers: Record<string, string> = { 'x-svc-api-key': key, ...options.headers };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${baseUrl}/api/v3${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
    },
  };
}

function dataOf<T>(response: ApiResponse, status: number, what: string): T {
  expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(status);
  return (response.body as { data: T }).data;
}

export interface Conflict {
  id: number;
  kind: 'order' | 'cancel';
  orderId: string;
  code: string;
  message: string;
  at: string | null;
  attempts: number;
}

export interface SyncStatus {
  upstream: string | null;
  upstreamKind: 'hub' | 'v3' | null;
  online: boolean | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  keyRejected: boolean;
  waiting: number;
  oldestWaitingSeconds: number | null;
  deliveryRate: number;
  estimatedSecondsLeft: number | null;
  conflicts: Conflict[];
}

/**
 * The two kinds of upstream every sync test runs against: a Kassa hub (one request per batch of orders)
 * and a plain v3 service (the cart flow) — a Kassa engine started with its capabilities turned off.
 */
export const UPSTREAMS = [{ kind: 'hub' }, { kind: 'v3' }] as const;
export type UpstreamKind = (typeof UPSTREAMS)[number]['kind'];

/** The proxy route of the request that carries an order upstream: the import for a hub, the checkout otherwise. */
export const orderRoute = (kind: UpstreamKind): string => (kind === 'hub' ? 'POST /orders/import' : 'POST /orders');

/** Requests relayed that start an order's delivery upstream: imports to a hub, new carts to a plain v3 service. */
export function deliveriesStarted(proxy: FaultProxy, kind: UpstreamKind): number {
  return proxy.counters.byRoute[`relayed ${kind === 'hub' ? 'POST /orders/import' : 'POST /carts'}`] ?? 0;
}

/** Upstream checkouts that created an order: 201 checkouts, or imports answered 200 (each may hold several). */
export function createdUpstream(proxy: FaultProxy, kind: UpstreamKind): number {
  return proxy.counters.upstreamStatus[`${orderRoute(kind)} ${kind === 'hub' ? 200 : 201}`] ?? 0;
}

export async function syncStatus(kiosk: Api): Promise<SyncStatus> {
  return dataOf<SyncStatus>(await kiosk.request('GET', '/sync/status'), 200, 'GET /sync/status');
}

/** Polls GET /sync/status until the outbox is empty (waiting 0); answers the last status. */
export async function waitForSynced(kiosk: Api, timeoutMs: number): Promise<SyncStatus> {
  return waitForStatus(kiosk, (status) => status.waiting === 0, timeoutMs, 'the outbox to drain');
}

export async function waitForStatus(kiosk: Api, done: (status: SyncStatus) => boolean, timeoutMs: number, what: string): Promise<SyncStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await syncStatus(kiosk);
    if (done(status)) return status;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last status ${JSON.stringify(status)}`);
    await sleep(50);
  }
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// --- selling -------------------------------------------------------------------------------------------

export interface SaleOptions {
  /** false: no box seats (default true) */
  seats?: boolean;
}

/**
 * The i-th sale of a run, through the kiosk's real API: 1–4 adults, a child every third sale, a box seat every
 * 25th (seat B1, B2, … by `seatIndex`), parking every fifth, the 10 % voucher every seventh, USD every
 * eleventh; cash and tok_visa alternate. Answers the confirmed local order.
 */
export async function sell(kiosk: Api, i: number, options: SaleOptions = {}): Promise<Order> {
  const items: { occurrenceId: string; inventoryItemId: string; priceOptionId: string; quantity: number }[] = [
    { occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity: 1 + (i % 4) },
  ];
  if (i % 3 === 0) items.push({ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.child, quantity: 1 });
  if (i % 25 === 0 && options.seats !== false) items.push({ occurrenceId: FEST.occurrenceId, inventoryItemId: `B${i / 25 + 1}`, priceOptionId: FEST.boxes.priceOptionId, quantity: 1 });
  const currency = i % 11 === 5 ? 'USD' : 'EUR';
  let cart = dataOf<Cart>(await kiosk.request('POST', '/carts', { body: { items, currency } }), 201, `sale ${i}: POST /carts`);
  if (i % 5 === 0) {
    cart = dataOf<Cart>(
      await kiosk.request('POST', `/carts/${cart.id}/items`, { body: { items: [{ extraId: FEST.extraId, quantity: 1 + (i % 2) }] } }),
      200,
      `sale ${i}: extras`,
    );
  }
  if (i % 7 === 0) {
    cart = dataOf<Cart>(await kiosk.request('POST', `/carts/${cart.id}/vouchers`, { body: { code: FEST.voucher } }), 200, `sale ${i}: voucher`);
  }
  return checkoutCart(kiosk, cart.id, cart.total, i % 2 === 0 ? 'cash' : 'card', `sale ${i}`);
}

/** One cart of `quantity` of a price option on an inventory item, checked out with cash. */
export async function sellItem(kiosk: Api, inventoryItemId: string, priceOptionId: string, quantity = 1): Promise<Order> {
  const cart = dataOf<Cart>(
    await kiosk.request('POST', '/carts', { body: { items: [{ occurrenceId: FEST.occurrenceId, inventoryItemId, priceOptionId, quantity }] } }),
    201,
    `POST /carts ${inventoryItemId}`,
  );
  return checkoutCart(kiosk, cart.id, cart.total, 'cash', `sale of ${inventoryItemId}`);
}

async function checkoutCart(kiosk: Api, cartId: string, total: Money, method: 'cash' | 'card', what: string): Promise<Order> {
  const payment = method === 'cash' ? { method: 'cash' } : { method: 'card', token: 'tok_visa' };
  const placed = await kiosk.request('POST', '/orders', {
    body: { cartId, expectedTotal: total, payment },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  const order = dataOf<Order>(placed, 201, `${what}: POST /orders`);
  expect(order.status).toBe('confirmed');
  return order;
}

export async function sellMany(kiosk: Api, count: number, from = 0, options: SaleOptions = {}): Promise<Order[]> {
  const orders: Order[] = [];
  for (let i = from; i < from + count; i++) orders.push(await sell(kiosk, i, options));
  return orders;
}

// --- what arrived upstream -----------------------------------------------------------------------------

/** Every order of the engine, all pages of GET /orders?limit=200, read with the admin key (which sees every key's orders). */
export async function allOrders(engine: TestEngine): Promise<Order[]> {
  const orders: Order[] = [];
  let cursor: string | undefined;
  do {
    const query = `?limit=200${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const response = await engine.request<{ data: Order[]; nextCursor?: string }>('GET', `/orders${query}`, { key: engine.keys.admin });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    orders.push(...response.body.data);
    cursor = response.body.nextCursor;
  } while (cursor !== undefined);
  return orders;
}

/** The upstream's orders that came from a terminal (payment `external`), by reference (the local order id). */
export function importedOrders(orders: readonly Order[]): Order[] {
  return orders.filter((order) => order.payment.method === 'external');
}

const referenceOf = (order: Order): string => order.payment.reference ?? '';

function sumByCurrency(orders: readonly Order[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const order of orders) sums[order.total.currency] = (sums[order.total.currency] ?? 0) + order.total.amount;
  return sums;
}

/**
 * Every local order is upstream exactly once (found by `payment.reference`), nothing else came from the
 * terminal, each with the same total, items and number of tickets, and the totals per currency are equal.
 */
export async function expectArrivedExactlyOnce(upstream: TestEngine, local: readonly Order[]): Promise<Order[]> {
  const imported = importedOrders(await allOrders(upstream));
  const byReference = new Map<string, Order[]>();
  for (const order of imported) byReference.set(referenceOf(order), [...(byReference.get(referenceOf(order)) ?? []), order]);

  const missing = local.filter((order) => !byReference.has(order.id)).map((order) => order.id);
  const duplicated = [...byReference.entries()].filter(([, orders]) => orders.length > 1).map(([reference, orders]) => `${reference}×${orders.length}`);
  const strangers = [...byReference.keys()].filter((reference) => !local.some((order) => order.id === reference));
  expect({ missing, duplicated, strangers }).toEqual({ missing: [], duplicated: [], strangers: [] });
  expect(imported).toHaveLength(local.length);

  for (const order of local) {
    const arrived = byReference.get(order.id)?.[0];
    expect(arrived, order.id).toBeDefined();
    if (!arrived) continue;
    expect(arrived.status, order.id).toBe('confirmed');
    expect(arrived.total, order.id).toEqual(order.total);
    expect(arrived.tickets.length, order.id).toBe(order.tickets.length);
    const lines = (o: Order) => o.items.map((item) => `${item.type} ${item.inventoryItemId ?? item.extraId ?? ''} ${item.priceOptionId ?? ''} ×${item.quantity} = ${item.total.amount}`).sort();
    expect(lines(arrived), order.id).toEqual(lines(order));
    expect(arrived.payment, order.id).toMatchObject({ method: 'external', status: 'captured', reference: order.id, amount: order.total });
  }
  expect(sumByCurrency(imported)).toEqual(sumByCurrency(local));
  return imported;
}

// --- reading the SQLite files --------------------------------------------------------------------------

export function readonlyDb<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export interface OutboxEntry {
  id: number;
  kind: string;
  orderId: string;
  state: string;
  upstreamCartId: string | null;
  upstreamOrderId: string | null;
  attempts: number;
}

export function outboxOf(dataDir: string): OutboxEntry[] {
  return readonlyDb(dataDir, (db) =>
    db
      .prepare<[], OutboxEntry>(
        `SELECT id, kind, order_id AS orderId, state, upstream_cart_id AS upstreamCartId, upstream_order_id AS upstreamOrderId, attempts
         FROM outbox ORDER BY id`,
      )
      .all(),
  );
}

/** sold per inventory item of the test occurrence */
export function soldOf(dataDir: string): Record<string, number> {
  return readonlyDb(dataDir, (db) => {
    const rows = db
      .prepare<[string], { id: string; sold: number }>('SELECT id, sold FROM inventory_items WHERE occurrence_id = ? AND sold > 0 ORDER BY id')
      .all(FEST.occurrenceId);
    return Object.fromEntries(rows.map((row) => [row.id, row.sold]));
  });
}

/** Every outbox entry of these orders is delivered and names the upstream order that carries its reference. */
export function expectOutboxDelivered(dataDir: string, local: readonly Order[], imported: readonly Order[]): void {
  const upstreamIdOf = new Map(imported.map((order) => [referenceOf(order), order.id]));
  const entries = outboxOf(dataDir).filter((entry) => entry.kind === 'order' && local.some((order) => order.id === entry.orderId));
  expect(entries).toHaveLength(local.length);
  for (const entry of entries) {
    expect(entry.state, entry.orderId).toBe('delivered');
    expect(entry.upstreamOrderId, entry.orderId).toBe(upstreamIdOf.get(entry.orderId));
  }
}
