import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../engine/checkout/payments/simulator';
import { loadMasterKey } from '../../engine/store/channel-repo';
import { openStore } from '../../engine/store/open';
import type { Store } from '../../engine/store/port';
import { createContext, type EngineContext } from '../../engine/shared/context';
import { settleOpenAttempts } from '../../engine/checkout/recover-payments';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';

/**
 * Payment recovery from several engine processes at once (contract §16): two processes sweeping the same stale
 * attempts settle each exactly once — one asks the provider, the other leaves it (the attempt's lease,
 * migration 0017) — and neither fails; the sweeper's advisory try-lock lets one process tidy at a time. Each
 * "process" is a store of its own on the one database, as a process has.
 */

const ATTEMPTS = 12;
let engine: TestEngine | undefined;
let url = '';
const stores: Store[] = [];
const dirs: string[] = [];

/** one engine process's recovery: its own pool, its own simulator (the provider's ledger is in the database), its status questions counted */
async function engineProcess(): Promise<{ ctx: EngineContext; asked: () => number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-recovery-'));
  dirs.push(dir);
  const store = await openStore(url, { dataDir: dir, masterKey: loadMasterKey(dir) });
  stores.push(store);
  const simulator = createSimulator(store, { baseUrl: () => 'http://127.0.0.1', now: Date.now });
  let asked = 0;
  const payments = { ...simulator.provider, status: (reference: string) => ((asked += 1), simulator.provider.status(reference)) };
  return { ctx: createContext(store, { holdSeconds: 900, now: Date.now, payments }), asked: () => asked };
}

describe.skipIf(!postgresAvailable())(postgresSuite('payment recovery from two processes at once'), () => {
  beforeAll(async () => {
    url = await createTestDatabase({ migrated: true });
    engine = await startTestEngine({ database: url });
  });
  afterAll(async () => {
    await engine?.close();
    await Promise.all(stores.map((store) => store.close()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('settles each stale attempt once: one provider question per attempt, the counts of both add up to the attempts, no failure', async () => {
    if (!engine) throw new Error('no engine');
    // what processes killed mid-checkout leave: held carts, each with a pending card attempt and its key in progress
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const apiKeyId = (await db.query<{ id: string }>("SELECT id FROM api_keys WHERE name = 'admin'")).rows[0]?.id;
      const old = Date.now() - 120_000;
      for (let i = 0; i < ATTEMPTS; i += 1) {
        const cart = await engine.request<{ data: { id: string } }>('POST', '/carts', {
          body: { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] },
        });
        expect(cart.status).toBe(201);
        const key = crypto.randomUUID();
        await db.query(`INSERT INTO payment_attempts (id, cart_id, api_key_id, idempotency_key, method, amount, currency, request, state, created_at)
          VALUES ($1, $2, $3, $4, 'card', 4500, 'EUR', '{"token":"tok_visa"}', 'pending', $5)`, [`pay_lost_${i}`, cart.body.data.id, apiKeyId, key, old]);
        await db.query("INSERT INTO idempotency_keys (api_key_id, key, cart_id, state, created_at) VALUES ($1, $2, $3, 'in_progress', $4)", [apiKeyId, key, cart.body.data.id, old]);
      }

      const [a, b] = [await engineProcess(), await engineProcess()];
      const counts = await Promise.all([a, b].map(({ ctx }) => settleOpenAttempts(ctx, { olderThanMs: 30_000 })));
      expect(counts.reduce((sum, c) => sum + c.failed + c.orders + c.refunds, 0)).toBe(0);
      expect(counts.reduce((sum, c) => sum + c.released, 0)).toBe(ATTEMPTS);
      expect(a.asked() + b.asked()).toBe(ATTEMPTS);
      expect((await db.query("SELECT state, outcome, count(*)::integer AS n FROM payment_attempts GROUP BY 1, 2")).rows).toEqual([{ state: 'failed', outcome: 'not_charged', n: ATTEMPTS }]);
      expect((await db.query('SELECT count(*)::integer AS n FROM idempotency_keys')).rows).toEqual([{ n: 0 }]);
    } finally {
      await db.end();
    }
  });

  it('the sweeper\'s lock: one process at a time has it, and the other skips its round instead of waiting', async () => {
    const [a, b] = [await engineProcess(), await engineProcess()];
    const seen = await a.ctx.store.transaction(async (tx) => [
      await tx.locks.tryNamed('sweeper'),
      await b.ctx.store.transaction((other) => other.locks.tryNamed('sweeper')),
    ]);
    expect(seen).toEqual([true, false]);
    // let go at the end of the transaction that held it
    expect(await b.ctx.store.transaction((tx) => tx.locks.tryNamed('sweeper'))).toBe(true);
  });
});
