import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../../engine/catalog/demo';
import type { PaymentProvider } from '../../../engine/checkout/payments/provider';
import { ProviderDeadlineExceeded, withDeadline } from '../../../engine/checkout/payments/provider';
import { createSimulator } from '../../../engine/checkout/payments/simulator';
import { createSqliteStore } from '../../../engine/store/sqlite-store';
import { openDatabase, type Db } from '../../../engine/store/db';
import { cancelOrder } from '../../../engine/checkout/cancel-order';
import { importCatalog } from '../../../engine/catalog/catalog';
import { createContext, type EngineContext } from '../../../engine/shared/context';
import { createCart } from '../../../engine/carts/create-cart';
import { placeOrder } from '../../../engine/checkout/place-order';
import { settleOpenAttempts } from '../../../engine/checkout/recover-payments';
import { readOrder } from '../../../engine/orders/read-order';

/**
 * The payment lifecycle below HTTP: the real simulator on a real SQLite file, behind a provider that can
 * lose its answers (a network between the engine and a real provider does).
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(options: { hangMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-pay-'));
  const store = createSqliteStore(openDatabase(dir), { groupCommit: false });
  const db = store.db;
  let clock = Date.parse('2027-01-10T10:00:00Z');
  const simulator = createSimulator(store, { baseUrl: () => 'http://127.0.0.1:1', now: () => clock, hangMs: options.hangMs });
  const faults = { refundFailures: 0, chargeAnswersLost: 0, refundCalls: 0, statusFailures: 0 };
  // The simulator does the work; this layer loses answers the way a network does.
  const provider: PaymentProvider = {
    testTokens: simulator.provider.testTokens,
    async charge(request) {
      const outcome = await simulator.provider.charge(request);
      if (faults.chargeAnswersLost > 0) {
        faults.chargeAnswersLost -= 1;
        throw new Error('connection reset');
      }
      return outcome;
    },
    async status(reference) {
      if (faults.statusFailures > 0) {
        faults.statusFailures -= 1;
        throw new Error('connection reset');
      }
      return simulator.provider.status(reference);
    },
    async refund(reference) {
      faults.refundCalls += 1;
      if (faults.refundFailures > 0) {
        faults.refundFailures -= 1;
        throw new Error('connection reset');
      }
      return simulator.provider.refund(reference);
    },
  };
  const ctx = createContext(store, { holdSeconds: 900, now: () => clock, payments: withDeadline(provider, 200) });
  await importCatalog(ctx, demoCatalog());
  cleanups.push(async () => {
    simulator.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { ctx, db, simulator, faults, advance: (ms: number) => (clock += ms) };
}

const one = (db: Db, sql: string) => db.prepare<[], Record<string, unknown>>(sql).get();

async function cardOrder(ctx: EngineContext, token = 'tok_visa') {
  const cart = await createCart(ctx, { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] });
  const result = await placeOrder(ctx, { id: 'key_1', scopes: ['admin'] }, crypto.randomUUID(), { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token } });
  return { cart, result };
}

describe('refunds: recorded only once the provider confirms, and never twice', () => {
  it('a refund without an answer leaves the order refunding; the next sweep confirms it, one refund in the ledger', async () => {
    const { ctx, db, faults } = await setup();
    const { result } = await cardOrder(ctx);
    if (!('order' in result)) throw new Error('expected an order');
    faults.refundFailures = 1;
    const cancelled = await cancelOrder(ctx, result.order.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.payment.status).toBe('refunding');
    expect(cancelled.payment.refundedAt).toBeUndefined();
    expect(one(db, `SELECT state FROM payment_attempts WHERE order_id = '${result.order.id}'`)).toEqual({ state: 'refunding' });
    expect(one(db, 'SELECT state FROM psp_charges')).toEqual({ state: 'approved' });

    const counts = await settleOpenAttempts(ctx);
    expect(counts.refunds).toBe(1);
    expect(one(db, `SELECT state FROM payment_attempts WHERE order_id = '${result.order.id}'`)).toEqual({ state: 'refunded' });
    expect(one(db, 'SELECT state FROM psp_charges')).toEqual({ state: 'refunded' });
    const order = await cancelOrder(ctx, result.order.id);
    expect(order.payment.status).toBe('refunded');
    expect(order.payment.refundedAt).toMatch(/Z$/);
    expect(faults.refundCalls).toBe(2); // the lost one and the confirmed one; cancelling again asks nothing
    expect((await settleOpenAttempts(ctx)).refunds).toBe(0);
  });

  it("the refund's confirmation changes the order's payment without writing the order's row (derived from its attempt)", async () => {
    const { ctx, db, faults, advance } = await setup();
    const { result } = await cardOrder(ctx);
    if (!('order' in result)) throw new Error('expected an order');
    const { id } = result.order;
    faults.refundFailures = 1;
    expect((await cancelOrder(ctx, id)).payment.status).toBe('refunding');
    // every write to the order's row from here on is counted
    db.exec(`CREATE TABLE order_writes (n INTEGER);
      CREATE TRIGGER count_order_writes AFTER UPDATE ON orders BEGIN INSERT INTO order_writes VALUES (1); END;`);
    const confirmedAt = advance(60_000);
    expect((await settleOpenAttempts(ctx)).refunds).toBe(1);
    expect(one(db, 'SELECT COUNT(*) AS n FROM order_writes')).toEqual({ n: 0 });
    expect(one(db, `SELECT payment FROM orders WHERE id = '${id}'`)).toEqual({ payment: '' }); // no copy kept
    expect(one(db, `SELECT refunded_at AS at FROM payment_attempts WHERE order_id = '${id}'`)).toEqual({ at: confirmedAt });
    const order = await readOrder(ctx, id);
    expect(order.payment).toEqual({ ...result.order.payment, status: 'refunded', refundedAt: new Date(confirmedAt).toISOString() });
  });

  it('the provider refund is idempotent per reference', async () => {
    const { ctx, simulator } = await setup();
    const { result } = await cardOrder(ctx);
    if (!('order' in result)) throw new Error('expected an order');
    const reference = result.order.payment.reference ?? '';
    expect(await simulator.provider.refund(reference)).toBe('refunded');
    expect(await simulator.provider.refund(reference)).toBe('refunded');
    expect(await simulator.provider.status(reference)).toBe('refunded');
    expect(await simulator.provider.refund('pay_never_charged')).toBe('none');
  });
});

describe('a charge whose answer is lost is settled by asking the provider, never by guessing', () => {
  it('approved at the provider: the order is made in the same request', async () => {
    const { ctx, db, faults } = await setup();
    faults.chargeAnswersLost = 1;
    const { result } = await cardOrder(ctx);
    expect('order' in result).toBe(true);
    expect(one(db, 'SELECT COUNT(*) AS n FROM psp_charges')).toEqual({ n: 1 });
    expect(one(db, "SELECT COUNT(*) AS n FROM payment_attempts WHERE state = 'captured'")).toEqual({ n: 1 });
  });

  it('a provider that hangs: the deadline ends the call, the reference is closed, the late charge is never taken', async () => {
    const { ctx, db, simulator } = await setup({ hangMs: 400 });
    const started = Date.now();
    const { cart } = await cardOrder(ctx, 'tok_timeout').catch((error: unknown) => {
      expect(error).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE', details: { charged: false } });
      return { cart: undefined };
    });
    expect(cart).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(400);
    const attempt = one(db, 'SELECT id, state, outcome FROM payment_attempts');
    expect(attempt).toMatchObject({ state: 'failed', outcome: 'not_charged' });
    // The hung call, answered late: the simulator refuses it, so nothing is ever charged for that reference.
    const late = await simulator.provider.charge({ reference: String(attempt?.id), shopperReference: 'x', amount: { amount: 3900, currency: 'EUR' }, token: 'tok_timeout' });
    expect(late).toEqual({ status: 'unavailable' });
    expect(one(db, 'SELECT COUNT(*) AS n FROM psp_charges')).toEqual({ n: 0 });
  });

  it('when the provider cannot say either, the attempt stays pending (502) and the next sweep past the deadline settles it', async () => {
    const { ctx, db, faults, advance } = await setup({ hangMs: 60_000 });
    faults.statusFailures = 1;
    const error = await cardOrder(ctx, 'tok_timeout').then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
    expect(one(db, 'SELECT state FROM payment_attempts')).toEqual({ state: 'pending' });
    // a sweep before the deadline has passed leaves it to the request path
    expect((await settleOpenAttempts(ctx, { olderThanMs: 200 })).released).toBe(0);
    advance(201);
    expect((await settleOpenAttempts(ctx, { olderThanMs: 200 })).released).toBe(1);
    expect(one(db, 'SELECT state, outcome FROM payment_attempts')).toEqual({ state: 'failed', outcome: 'not_charged' });
    expect(one(db, "SELECT COUNT(*) AS n FROM carts WHERE status = 'held'")).toEqual({ n: 1 }); // free to release or pay again
  });

  it('withDeadline rejects with ProviderDeadlineExceeded', async () => {
    const never: PaymentProvider = { testTokens: [], charge: () => new Promise(() => undefined), status: async () => 'none', refund: async () => 'none' };
    await expect(withDeadline(never, 20).charge({ reference: 'r', shopperReference: 's', amount: { amount: 1, currency: 'EUR' }, token: 't' }))
      .rejects.toBeInstanceOf(ProviderDeadlineExceeded);
  });
});
