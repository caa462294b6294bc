import { expect } from 'vitest';
import type { EngineOptions } from '../../engine/start';
import type { Money } from '../helpers/cart-assertions';
import { startTestEngine, type ApiResponse, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { GIFT, giftCatalog } from '../helpers/gift-catalog';
import { catalogFile, readonlyDb, SYNC_SCOPES, type Order } from './harness';

/**
 * Gift cards at a terminal (issue #24, contract §13 and §10): a hub that sells and keeps the cards, and a terminal
 * behind a fault proxy that spends them there within its requests, on one small catalog (giftCatalog of
 * test/helpers/gift-catalog.ts: a show of 200 places at €35 and a €50 gift card). Reading a card is
 * test/helpers/gift-cards.ts's (getGiftCard, readBalance).
 */

/**
 * The scopes of a terminal's sync key at its hub, as docs/security.md gives them: its `orders:import` is what the
 * hub's gift-card holds ask for (docs/gift-cards.md). Without it a terminal's gift-card payments answer 503.
 */
export const TERMINAL_SCOPES = SYNC_SCOPES;

export interface GiftRig {
  hub: TestEngine;
  terminal: TestEngine;
  proxy: FaultProxy;
  close(): Promise<void>;
}

/**
 * A hub and a terminal syncing to it through the fault proxy, both on the gift catalog. `sync` undefined: the
 * shipped defaults (1 s first retry step, a look every second).
 */
export async function startGiftRig(
  options: { sync?: { retryBaseMs?: number; pollMs?: number }; terminal?: Partial<EngineOptions>; scopes?: string[]; /** the terminal talks to the hub itself, not through the proxy */ direct?: boolean } = {},
): Promise<GiftRig> {
  const file = catalogFile(giftCatalog());
  const hub = await startTestEngine({ catalogFile: file.path, demo: false });
  const key = await hub.createKey(options.scopes ?? TERMINAL_SCOPES);
  const proxy = await startFaultProxy({ target: hub.url, seed: 24 });
  const terminal = await startTestEngine({
    catalogFile: file.path,
    demo: false,
    ...options.terminal,
    upstream: { url: options.direct === true ? hub.url : proxy.url, key, ...options.sync },
  });
  return {
    hub,
    terminal,
    proxy,
    async close() {
      await terminal.close();
      await proxy.close();
      await hub.close();
      file.remove();
    },
  };
}

type Cart = { id: string; total: Money };

export async function ticketCart(engine: TestEngine, quantity: number): Promise<Cart> {
  const made = await engine.request<{ data: Cart }>('POST', '/carts', {
    body: { items: [{ occurrenceId: GIFT.occurrenceId, inventoryItemId: GIFT.inventoryItemId, priceOptionId: GIFT.priceOptionId, quantity }] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.data;
}

export async function checkout(engine: TestEngine, cart: Cart, payment: Record<string, unknown>, key: string = crypto.randomUUID()): Promise<ApiResponse<{ data: Order } & ErrorEnvelope>> {
  return engine.request('POST', '/orders', { headers: { 'idempotency-key': key }, body: { cartId: cart.id, expectedTotal: cart.total, payment } });
}

/** Sells one €50 gift card (cash) on `engine`; answers its order and the card's code. */
export async function sellGiftCard(engine: TestEngine): Promise<{ order: Order & { giftCards: { code: string }[] }; code: string }> {
  const made = await engine.request<{ data: Cart }>('POST', '/carts', {
    body: { items: [{ occurrenceId: GIFT.card.occurrenceId, inventoryItemId: GIFT.card.inventoryItemId, priceOptionId: GIFT.card.priceOptionId, quantity: 1 }] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const placed = await checkout(engine, made.body.data, { method: 'cash' });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const order = placed.body.data as Order & { giftCards: { code: string }[] };
  const code = order.giftCards[0]?.code;
  if (code === undefined) throw new Error('the gift-card order issued no code');
  return { order, code };
}

/** The terminal's outbox entries of a kind (SQLite). */
export function outboxKinds(dataDir: string): { kind: string; orderId: string; state: string }[] {
  return readonlyDb(dataDir, (db) => db.prepare<[], { kind: string; orderId: string; state: string }>('SELECT kind, order_id AS orderId, state FROM outbox ORDER BY id').all());
}

/** The local orders of an engine (admin key: every order). */
export async function orderCount(engine: TestEngine): Promise<number> {
  const answer = await engine.request<{ data: unknown[] }>('GET', '/orders?limit=200');
  expect(answer.status).toBe(200);
  return answer.body.data.length;
}
