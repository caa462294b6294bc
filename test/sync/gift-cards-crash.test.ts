import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/db';
import { createKeyRepo } from '../../engine/store/key-repo';
import { startTestEngine } from '../helpers/engine';
import { startFaultProxy } from '../helpers/fault-proxy';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';
import { catalogFile, httpApi, readonlyDb, sleep, waitForSynced, waitUntil } from './harness';
import { GIFT, giftCatalog } from '../helpers/gift-catalog';
import { readBalance } from '../helpers/gift-cards';
import { TERMINAL_SCOPES, outboxKinds, sellGiftCard } from './gift-card-helpers';

/**
 * Issue #24, contract §10: a terminal checkout whose gift-card parts were held at the hub, killed (SIGKILL) while
 * its remainder is with the payment provider, is settled as failed when the terminal starts again — never made an
 * order on a guess: no order, the remainder not kept, and the hold released at the hub through the outbox.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a terminal killed in the middle of a gift-card checkout', () => {
  it('settles it as failed at the restart and releases the hold at the hub exactly once', async () => {
    const catalog = catalogFile(giftCatalog());
    cleanups.push(catalog.remove);
    const hub = await startTestEngine({ catalogFile: catalog.path, demo: false });
    cleanups.push(() => hub.close());
    const syncKey = await hub.createKey(TERMINAL_SCOPES);
    const proxy = await startFaultProxy({ target: hub.url, seed: 2424 });
    cleanups.push(() => proxy.close());

    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-gift-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const keyDb = openDatabase(dataDir);
    const adminKey = createKeyRepo(keyDb).create('till', ['admin']).key;
    keyDb.close();
    const args = ['--data', dataDir, '--no-demo', '--catalog', catalog.path, '--rate-limit', '0', '--log-level', 'warn', '--upstream', proxy.url, '--sync-retry-ms', '20'];
    const env = { KASSA_UPSTREAM_KEY: syncKey };
    let current: ServeProcess | undefined;
    cleanups.push(async () => {
      if (current) await kill(current, 'SIGKILL');
    });

    const { code } = await sellGiftCard(hub);
    // the provider takes 10 s to answer: the kill lands while the remainder is with it
    current = await startServe([...args, '--psp-answer-delay-ms', '10000'], undefined, env);
    const till = httpApi(current.url, adminKey);
    const cart = await till.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', {
      body: { items: [{ occurrenceId: GIFT.occurrenceId, inventoryItemId: GIFT.inventoryItemId, priceOptionId: GIFT.priceOptionId, quantity: 2 }] },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const checkout = till
      .request('POST', '/orders', {
        headers: { 'idempotency-key': crypto.randomUUID() },
        body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'card', token: 'tok_visa', giftCards: [{ code }] } },
      })
      .catch(() => 'killed' as const);

    // held at the hub, the remainder with the provider: then the till dies
    await waitUntil(async () => (await readBalance(hub, code)) === 0, 10_000, 'the parts to be held at the hub');
    await sleep(300);
    await kill(current, 'SIGKILL');
    expect(await checkout).toBe('killed');
    expect(readonlyDb(dataDir, (db) => db.prepare("SELECT state FROM payment_attempts").all())).toEqual([{ state: 'pending' }]);
    expect(await readBalance(hub, code)).toBe(0);

    current = await startServe(args, undefined, env);
    const restarted = httpApi(current.url, adminKey);
    await waitForSynced(restarted, 20_000);
    const orders = await restarted.request<{ data: unknown[] }>('GET', '/orders?limit=10');
    expect(orders.body.data).toEqual([]);
    const [attempt] = readonlyDb(dataDir, (db) => db.prepare<[], { state: string }>('SELECT state FROM payment_attempts').all());
    // failed (nothing charged) or refunded (charged, given back): never an order
    expect(['failed', 'refunded']).toContain(attempt?.state);
    expect(outboxKinds(dataDir)).toEqual([{ kind: 'gift-card-release', orderId: expect.stringMatching(/^pay_/), state: 'delivered' }]);
    expect(await readBalance(hub, code)).toBe(5000);
    const card = await hub.request<{ data: { transactions: unknown[] } }>('GET', `/gift-cards/${code}`);
    expect(card.body.data.transactions).toEqual([]);
  }, 60_000);
});
