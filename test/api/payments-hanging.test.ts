import { afterEach, describe, expect, it } from 'vitest';
import { available, concert, createCart } from '../helpers/cart-assertions';
import { readRows } from '../helpers/db-rows';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { card, checkout, expectError, paymentUnderWay } from '../helpers/orders';

/**
 * A payment provider that never answers (the simulator's tok_timeout): the attempt settles within the
 * provider deadline by asking the provider about its reference, the seats come back, and staff can always
 * release a cart that is not paying. One test runs at the shipped default deadline (30 s).
 */

const engines: TestEngine[] = [];
/**
 * The provider deadline of the tests about what follows it (the first test runs at the shipped 30 s): each provider
 * call gets it, the charge and then the status look-up, and a look-up that misses it on a loaded machine leaves the
 * attempt open (a cart still paying) — so not shorter than this.
 */
const SHORT_DEADLINE_MS = 2000;
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

function attempts(engine: TestEngine): Promise<Array<{ state: string; outcome: string | null }>> {
  return readRows(engine, 'SELECT state, outcome FROM payment_attempts');
}

describe('a provider that never answers', () => {
  it('at the default 30 s deadline: 502 not charged, staff are told the cart is paying meanwhile, then release it', async () => {
    const engine = await startTestEngine();
    engines.push(engine);
    const before = await available(engine, 'brass-2027-03-12', 'standing');
    const cart = await createCart(engine, [concert(2)]);
    const started = Date.now();
    const paying = checkout(engine, cart.id, cart.total, card('tok_timeout'));

    // While the provider is silent, the cart is paying: it cannot be released or replaced.
    await paymentUnderWay(engine);
    expectError(await engine.request('DELETE', `/carts/${cart.id}`), 409, 'CART_CHECKOUT_IN_PROGRESS');

    const answer = await paying;
    const elapsed = Date.now() - started;
    const error = expectError(answer, 502, 'PAYMENT_PROVIDER_UNAVAILABLE');
    expect(error.details).toMatchObject({ charged: false });
    expect(elapsed).toBeGreaterThanOrEqual(29_900);
    expect(elapsed).toBeLessThan(40_000);
    expect(await attempts(engine)).toEqual([{ state: 'failed', outcome: 'not_charged' }]);

    expect((await engine.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(before);
  }, 45_000);

  it('the hold passing during the hung payment: after the deadline DELETE gives the seats back (410, as the hold is over)', async () => {
    let clock = Date.parse('2027-01-10T10:00:00Z');
    const engine = await startTestEngine({ now: () => clock, paymentDeadlineMs: SHORT_DEADLINE_MS });
    engines.push(engine);
    const before = await available(engine, 'brass-2027-03-12', 'standing');
    const cart = await createCart(engine, [concert(3)]);
    const paying = checkout(engine, cart.id, cart.total, card('tok_timeout'));
    await paymentUnderWay(engine);
    clock += 16 * 60 * 1000; // the 15-minute hold is over while the provider is silent
    expectError(await paying, 502, 'PAYMENT_PROVIDER_UNAVAILABLE');
    expectError(await engine.request('DELETE', `/carts/${cart.id}`), 410, 'CART_EXPIRED');
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(before);
  });

  it('a retry with a new key after the deadline pays with another card and makes one order', async () => {
    const engine = await startTestEngine({ paymentDeadlineMs: SHORT_DEADLINE_MS });
    engines.push(engine);
    const cart = await createCart(engine, [concert(1)]);
    expectError(await checkout(engine, cart.id, cart.total, card('tok_timeout')), 502, 'PAYMENT_PROVIDER_UNAVAILABLE');
    const paid = await checkout(engine, cart.id, cart.total, card('tok_visa'));
    expect(paid.status).toBe(201);
    expect((await attempts(engine)).map((attempt) => attempt.state).sort()).toEqual(['captured', 'failed']);
  });
});
