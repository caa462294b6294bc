import { expect } from 'vitest';
import type { EngineOptions } from '../../engine/start';
import { ALLOC, allocationCatalog, priceOptionOf } from '../fixtures/allocation-catalog';
import { startTestEngine, type ApiResponse, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { catalogFile, FAST, readonlyDb, SYNC_SCOPES, waitUntil, type Order } from './harness';

/** A hub, and terminals each behind a fault proxy of its own, on the allocation catalog (contract §10). */

export interface Holding {
  occurrenceId: string;
  inventoryItemId: string;
  inHand: number;
  inCarts: number;
  sellable: number;
  lapsesAt: string | null;
  venueAvailable: number | null;
}

export interface Terminal {
  engine: TestEngine;
  proxy: FaultProxy;
  key: string;
  close(): Promise<void>;
}

export async function startHub(sizes: { floor: number; seats: number }, options: Partial<EngineOptions> = {}) {
  const file = catalogFile(allocationCatalog(sizes));
  const hub = await startTestEngine({ catalogFile: file.path, demo: false, ...options });
  return { hub, catalogPath: file.path, remove: file.remove };
}

export async function startTerminal(hub: TestEngine, catalogPath: string, seed: number, options: Partial<EngineOptions> = {}): Promise<Terminal> {
  const key = await hub.createKey(SYNC_SCOPES);
  const proxy = await startFaultProxy({ target: hub.url, seed });
  const engine = await startTestEngine({ catalogFile: catalogPath, demo: false, upstream: { url: proxy.url, key, pullIntervalMs: 60_000, ...FAST }, ...options });
  return {
    engine,
    proxy,
    key,
    async close() {
      await engine.close();
      await proxy.close();
    },
  };
}

export async function holdingOf(terminal: TestEngine, itemId: string): Promise<Holding | undefined> {
  const answer = await terminal.request<{ data: { holdings: Holding[] } }>('GET', '/sync/holdings');
  expect(answer.status).toBe(200);
  return answer.body.data.holdings.find((row) => row.occurrenceId === ALLOC.occurrenceId && row.inventoryItemId === itemId);
}

export async function waitForSellable(terminal: TestEngine, itemId: string, check: (sellable: number) => boolean, timeoutMs: number): Promise<number> {
  let last = -1;
  await waitUntil(async () => check((last = (await holdingOf(terminal, itemId))?.sellable ?? 0)), timeoutMs, `holding of ${itemId} (last ${last})`);
  return last;
}

/** A cart of `quantity` of one item and its checkout (cash); answers the order, or the refusal of the cart. */
export async function sellAt(
  engine: Pick<TestEngine, 'request'>,
  itemId: string,
  quantity: number,
  key?: string,
): Promise<{ order: Order } | { refusal: ApiResponse<ErrorEnvelope> }> {
  const cart = await engine.request<{ data: { id: string; total: { amount: number; currency: string } } } & ErrorEnvelope>('POST', '/carts', {
    ...(key !== undefined && { key }),
    body: { items: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: itemId, priceOptionId: priceOptionOf(itemId), quantity }] },
  });
  if (cart.status !== 201) return { refusal: cart };
  return { order: await checkout(engine, cart.body.data.id, cart.body.data.total, key) };
}

export async function checkout(engine: Pick<TestEngine, 'request'>, cartId: string, total: { amount: number; currency: string }, key?: string): Promise<Order> {
  const placed = await engine.request<{ data: Order }>('POST', '/orders', {
    ...(key !== undefined && { key }),
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { cartId, expectedTotal: total, payment: key === undefined ? { method: 'cash' } : { method: 'card', token: 'tok_visa' } },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return placed.body.data;
}

/** The hub's stock per item, read from its data file. */
export function hubStock(dataDir: string) {
  return readonlyDb(dataDir, (db) =>
    db
      .prepare<[string], { id: string; capacity: number; held: number; sold: number; allocated: number }>(
        'SELECT id, capacity, held, sold, allocated FROM inventory_items WHERE occurrence_id = ? ORDER BY position',
      )
      .all(ALLOC.occurrenceId),
  );
}

export function expectInvariant(dataDir: string): void {
  for (const row of hubStock(dataDir)) expect(row.held + row.sold + row.allocated, JSON.stringify(row)).toBeLessThanOrEqual(row.capacity);
}
