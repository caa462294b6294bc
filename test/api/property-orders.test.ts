import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/**
 * Property: any sequence of cart and order operations — create, delete, apply a voucher, check out by card,
 * cash or a declined card, cancel, let the hold pass — leaves the engine agreeing with a small model of stock
 * and money after every step: what is available of each item, what each cart and order answers, and what was
 * taken and given back. fast-check generates the sequences and shrinks a failure to its shortest form.
 */

interface ItemRef { readonly occurrenceId: string; readonly inventoryItemId: string; readonly priceOptionId: string; readonly price: number; readonly assigned: boolean }

const ITEMS: readonly ItemRef[] = [
  { occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', price: 3900, assigned: false },
  { occurrenceId: 'brass-2027-03-12', inventoryItemId: 'balcony', priceOptionId: 'balcony-adult', price: 4900, assigned: false },
  { occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'A1', priceOptionId: 'stalls-full', price: 4500, assigned: true },
  { occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'A2', priceOptionId: 'stalls-full', price: 4500, assigned: true },
];
const key = (item: ItemRef) => `${item.occurrenceId}/${item.inventoryItemId}`;
const HOLD_MS = 15 * 60 * 1000;

interface ModelCart { id: string; item: ItemRef; quantity: number; status: 'held' | 'deleted' | 'expired' | 'ordered'; voucher: boolean }
interface ModelOrder { id: string; cart: ModelCart; total: number; method: 'card' | 'cash'; status: 'confirmed' | 'cancelled' }
interface Model {
  available: Map<string, number>;
  carts: ModelCart[];
  orders: ModelOrder[];
  /** money taken and not given back, by method */
  taken: { card: number; cash: number };
}
interface Real { engine: TestEngine; advance(ms: number): void }

const totalOf = (cart: ModelCart) => {
  const subtotal = cart.item.price * cart.quantity;
  return cart.voucher ? subtotal - Math.min(500, subtotal) : subtotal;
};

async function inventory(engine: TestEngine, occurrenceId: string): Promise<Map<string, number>> {
  const response = await engine.request<{ data: { areas: Array<{ inventoryItems: Array<{ id: string; available: number }> }> } }>('GET', `/occurrences/${occurrenceId}/inventory`);
  expect(response.status).toBe(200);
  return new Map(response.body.data.areas.flatMap((area) => area.inventoryItems.map((item) => [`${occurrenceId}/${item.id}`, item.available] as const)));
}

async function availability(engine: TestEngine): Promise<Map<string, number>> {
  const all = new Map<string, number>();
  for (const occurrenceId of new Set(ITEMS.map((item) => item.occurrenceId))) {
    for (const [k, v] of await inventory(engine, occurrenceId)) if (ITEMS.some((item) => key(item) === k)) all.set(k, v);
  }
  return all;
}

/** After every step: stock, every cart's and order's answer, and the money, as the model says. */
async function compare(model: Model, real: Real): Promise<void> {
  expect(Object.fromEntries(await availability(real.engine))).toEqual(Object.fromEntries(model.available));
  const taken = { card: 0, cash: 0 };
  for (const order of model.orders) {
    const response = await real.engine.request<{ data: { status: string; total: { amount: number }; payment: { method: string; status: string } } }>('GET', `/orders/${order.id}`);
    expect(response.status).toBe(200);
    expect(response.body.data.status).toBe(order.status);
    expect(response.body.data.total.amount).toBe(order.total);
    expect(response.body.data.payment.status).toBe(order.status === 'confirmed' ? 'captured' : 'refunded');
    if (response.body.data.payment.status === 'captured') taken[order.method] += response.body.data.total.amount;
  }
  expect(taken).toEqual(model.taken);
}

class CreateCart implements fc.AsyncCommand<Model, Real> {
  constructor(readonly item: ItemRef, readonly quantity: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const quantity = this.item.assigned ? 1 : this.quantity;
    const response = await real.engine.request<{ data: { id: string; total: { amount: number } } }>('POST', '/carts', {
      body: { items: [{ occurrenceId: this.item.occurrenceId, inventoryItemId: this.item.inventoryItemId, priceOptionId: this.item.priceOptionId, quantity }] },
    });
    const left = model.available.get(key(this.item)) ?? 0;
    if (left >= quantity) {
      expect(response.status).toBe(201);
      model.available.set(key(this.item), left - quantity);
      const cart: ModelCart = { id: response.body.data.id, item: this.item, quantity, status: 'held', voucher: false };
      expect(response.body.data.total.amount).toBe(totalOf(cart));
      model.carts.push(cart);
    } else {
      expect(response.status).toBe(409);
    }
    await compare(model, real);
  }
  toString = () => `createCart(${key(this.item)} × ${this.quantity})`;
}

abstract class OnCart implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.carts.length > 0;
  protected cart(model: Model): ModelCart {
    return model.carts[this.pick % model.carts.length] as ModelCart;
  }
  abstract run(model: Model, real: Real): Promise<void>;
}

class DeleteCart extends OnCart {
  async run(model: Model, real: Real) {
    const cart = this.cart(model);
    const response = await real.engine.request('DELETE', `/carts/${cart.id}`);
    if (cart.status === 'held') {
      expect(response.status).toBe(204);
      cart.status = 'deleted';
      model.available.set(key(cart.item), (model.available.get(key(cart.item)) ?? 0) + cart.quantity);
    } else if (cart.status === 'deleted') expect(response.status).toBe(204);
    else expect(response.status).toBe(cart.status === 'ordered' ? 409 : 410);
    await compare(model, real);
  }
  override toString = () => `deleteCart(#${this.pick})`;
}

class ApplyVoucher extends OnCart {
  async run(model: Model, real: Real) {
    const cart = this.cart(model);
    const response = await real.engine.request<{ data: { total: { amount: number } } }>('POST', `/carts/${cart.id}/vouchers`, { body: { code: 'FIVEOFF' } });
    if (cart.status === 'held') {
      expect(response.status).toBe(200);
      cart.voucher = true;
      expect(response.body.data.total.amount).toBe(totalOf(cart));
    } else {
      expect(response.status).toBe(cart.status === 'ordered' ? 409 : 410);
    }
    await compare(model, real);
  }
  override toString = () => `applyVoucher(#${this.pick})`;
}

class Checkout extends OnCart {
  constructor(pick: number, readonly how: 'card' | 'cash' | 'declined') {
    super(pick);
  }
  async run(model: Model, real: Real) {
    const cart = this.cart(model);
    const payment = this.how === 'cash' ? { method: 'cash' } : { method: 'card', token: this.how === 'card' ? 'tok_visa' : 'tok_declined' };
    const response = await real.engine.request<{ data: { id: string; total: { amount: number } } }>('POST', '/orders', {
      body: { cartId: cart.id, expectedTotal: { amount: totalOf(cart), currency: 'EUR' }, payment },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    if (cart.status !== 'held') {
      expect(response.status).toBe(cart.status === 'ordered' ? 409 : 410);
    } else if (this.how === 'declined') {
      expect(response.status).toBe(402);
    } else {
      expect(response.status).toBe(201);
      cart.status = 'ordered';
      const method = this.how;
      const total = totalOf(cart);
      expect(response.body.data.total.amount).toBe(total);
      model.orders.push({ id: response.body.data.id, cart, total, method, status: 'confirmed' });
      model.taken[method] += total;
    }
    await compare(model, real);
  }
  override toString = () => `checkout(#${this.pick}, ${this.how})`;
}

class Cancel implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.orders.length > 0;
  async run(model: Model, real: Real) {
    const order = model.orders[this.pick % model.orders.length] as ModelOrder;
    const response = await real.engine.request('POST', `/orders/${order.id}/cancel`);
    expect(response.status).toBe(200);
    if (order.status === 'confirmed') {
      order.status = 'cancelled';
      model.taken[order.method] -= order.total;
      model.available.set(key(order.cart.item), (model.available.get(key(order.cart.item)) ?? 0) + order.cart.quantity);
    }
    await compare(model, real);
  }
  toString = () => `cancel(#${this.pick})`;
}

class HoldPasses implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    real.advance(HOLD_MS + 1000);
    for (const cart of model.carts) {
      if (cart.status !== 'held') continue;
      cart.status = 'expired';
      model.available.set(key(cart.item), (model.available.get(key(cart.item)) ?? 0) + cart.quantity);
    }
    await compare(model, real);
  }
  toString = () => 'holdPasses()';
}

describe('property: cart and order operations against a model of stock and money', () => {
  let engine: TestEngine;
  let clock = Date.parse('2027-01-10T10:00:00Z');
  beforeAll(async () => {
    engine = await startTestEngine({ now: () => clock });
  });
  afterAll(() => engine.close());

  it('agrees with the model after every step of any sequence', async () => {
    const pick = fc.nat(20);
    const commands = [
      fc.tuple(fc.constantFrom(...ITEMS), fc.integer({ min: 1, max: 8 })).map(([item, quantity]) => new CreateCart(item, quantity)),
      fc.tuple(fc.constantFrom(...ITEMS), fc.integer({ min: 1, max: 8 })).map(([item, quantity]) => new CreateCart(item, quantity)),
      pick.map((p) => new DeleteCart(p)),
      pick.map((p) => new ApplyVoucher(p)),
      fc.tuple(pick, fc.constantFrom('card' as const, 'cash' as const, 'declined' as const)).map(([p, how]) => new Checkout(p, how)),
      fc.tuple(pick, fc.constantFrom('card' as const, 'cash' as const)).map(([p, how]) => new Checkout(p, how)),
      pick.map((p) => new Cancel(p)),
      fc.constant(new HoldPasses()),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 14 }), async (cmds) => {
        // Each run starts from what the engine holds now: earlier runs' holds are let pass first.
        clock += 24 * 60 * 60 * 1000;
        const model: Model = { available: await availability(engine), carts: [], orders: [], taken: { card: 0, cash: 0 } };
        await fc.asyncModelRun(() => ({ model, real: { engine, advance: (ms: number) => (clock += ms) } }), cmds);
      }),
      { numRuns: 30 },
    );
  }, 240_000);
});
