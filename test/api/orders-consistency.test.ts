import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { readNumber } from '../helpers/db-rows';
import { startTestEngine, withStore, type TestEngine } from '../helpers/engine';

/** What the customer was charged is what the order says, and a payment that never answered unlocks its cart. */

interface Cart { id: string; total: { amount: number; currency: string } }
interface Order { total: { amount: number; currency: string }; payment: { amount: { amount: number } }; receiptLines: { amount: { amount: number } }[] }

/** charges the simulated provider has recorded (its table in the engine's database, read beside it) */
function charges(engine: TestEngine): Promise<number> {
  return readNumber(engine, 'SELECT COUNT(*) AS n FROM psp_charges');
}

const seat = (id: string) => ({ items: [{ occurrenceId: 'tempest-2027-04-02', inventoryItemId: id, priceOptionId: 'stalls-full', quantity: 1 }] });

describe('the catalog changing while the provider is answering', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({ paymentAnswerDelayMs: 600 });
  });
  afterAll(() => engine.close());

  it.each([
    ['a new USD rate', (doc: ReturnType<typeof demoCatalog>) => doc.exchangeRates?.forEach((rate) => rate.to === 'USD' && (rate.rate = '2.5'))],
    ['the USD rate removed', (doc: ReturnType<typeof demoCatalog>) => (doc.exchangeRates = doc.exchangeRates?.filter((rate) => rate.to !== 'USD'))],
  ])('%s: the order keeps the total that was charged', async (_name, change) => {
    const chargesBefore = await charges(engine);
    const created = await engine.request<{ data: Cart }>('POST', '/carts', { body: { ...seat(_name.includes('new') ? 'G1' : 'G2'), currency: 'USD' } });
    const cart = created.body.data;
    expect(cart.total).toEqual({ amount: 4871, currency: 'USD' }); // 45.00 EUR × 1.0825
    const placing = engine.request<{ data: Order }>('POST', '/orders', {
      body: { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    // the provider has the charge; its answer is on the way (600 ms)
    for (const deadline = Date.now() + 10_000; (await charges(engine)) === chargesBefore; await new Promise((done) => setTimeout(done, 10))) {
      if (Date.now() > deadline) throw new Error('the provider never recorded the charge');
    }
    const doc = demoCatalog();
    change(doc);
    expect((await engine.request('PUT', '/catalog', { body: doc })).status).toBe(200);
    const placed = await placing;
    expect(placed.status).toBe(201);
    expect(placed.body.data.total).toEqual({ amount: 4871, currency: 'USD' });
    expect(placed.body.data.payment.amount.amount).toBe(4871);
    expect(placed.body.data.receiptLines.map((line) => line.amount.amount)).toEqual([4871]);
    expect((await engine.request('PUT', '/catalog', { body: demoCatalog() })).status).toBe(200);
  });
});

describe('a payment attempt whose provider never answered', () => {
  let engine: TestEngine;
  let clock = Date.now();
  beforeAll(async () => {
    // the engine's clock, moved by the test: the sweeper (every 100 ms) sees the attempt stale only when the test says so
    engine = await startTestEngine({ sweepIntervalMs: 100, now: () => clock });
  });
  afterAll(() => engine.close());

  it('is settled by the sweeper after a minute: the cart is unlocked without a restart', async () => {
    const cart = (await engine.request<{ data: Cart }>('POST', '/carts', { body: seat('H1') })).body.data;
    // What a lost provider answer leaves behind: the attempt pending, its key in progress, nothing running.
    // (written through the engine's store, as the first transaction of POST /orders writes them)
    const key = crypto.randomUUID();
    await withStore(engine, async (store) => {
      const apiKeyId = (await store.repos.keys.authenticate(engine.keys.admin))?.id ?? '';
      await store.transaction(async (tx) => {
        await tx.checkout.insertAttempt({ id: 'pay_lost', cartId: cart.id, apiKeyId, idempotencyKey: key, method: 'card', amount: 4500, currency: 'EUR', request: '{"token":"tok_visa"}', priced: null, createdAt: clock });
        await tx.checkout.beginKey(apiKeyId, key, cart.id, clock);
      });
    });

    // while the attempt is young, the cart is locked: staff cannot release a cart that may be paying
    const locked = await engine.request<{ error: { code: string } }>('DELETE', `/carts/${cart.id}`);
    expect([locked.status, locked.body?.error.code]).toEqual([409, 'CART_CHECKOUT_IN_PROGRESS']);
    clock += 120_000; // two minutes on: past the 30 s provider deadline, well inside the cart's 15-minute hold
    await expect.poll(async () => (await engine.request('DELETE', `/carts/${cart.id}`)).status, { timeout: 5_000 }).toBe(204);
  });
});

describe('the sync scope', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('guards the sync status; admin keys keep it', async () => {
    const denied = await engine.request<{ error: { code: string; details: { requiredScope: string } } }>('GET', '/sync/status', { key: engine.keys.carts });
    expect([denied.status, denied.body.error.code, denied.body.error.details.requiredScope]).toEqual([403, 'INSUFFICIENT_PERMISSIONS', 'sync']);
    expect((await engine.request('GET', '/sync/status', { key: await engine.createKey(['sync']) })).status).toBe(200);
    expect((await engine.request('GET', '/sync/status', { key: engine.keys.admin })).status).toBe(200);
  });
});
