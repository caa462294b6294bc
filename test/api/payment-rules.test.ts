import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { available, cartOf, concert, createCart, errorOf, seat } from '../helpers/cart-assertions';
import { readNumber } from '../helpers/db-rows';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { authenticationResultOf, card, cash, challengeOf, checkout, eur, expectError, orderOf } from '../helpers/orders';

/**
 * Business rules of checkout (issue #12): the voucher policy, a total of 0 paid with `none`, a risk decline
 * that ends the cart's checkout for every method, 3-D Secure results bound to the cart and the attempt, and
 * an upper bound on cash tendered. Through the real HTTP server and a real database.
 */

const count = (engine: TestEngine, sql: string): Promise<number> => readNumber(engine, sql);

const applyVoucher = (engine: TestEngine, cartId: string, code: string) => engine.request('POST', `/carts/${cartId}/vouchers`, { body: { code } });

function withVouchers(change: (vouchers: NonNullable<CatalogDocument['vouchers']>) => NonNullable<CatalogDocument['vouchers']>): CatalogDocument {
  const doc = demoCatalog();
  return { ...doc, vouchers: change(doc.vouchers ?? []) };
}

describe('voucher policy: one voucher per cart unless every voucher in it combines', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('a stand-alone voucher refuses company: 400 INVALID_VOUCHER not_combinable, the cart unchanged', async () => {
    const cart = await createCart(engine, [seat('B1'), seat('B2')]);
    cartOf(await applyVoucher(engine, cart.id, 'TEMPEST20'));
    const refused = errorOf(await applyVoucher(engine, cart.id, 'WELCOME10'), 400, 'INVALID_VOUCHER', 'code');
    expect(refused.details).toMatchObject({ reason: 'not_combinable', vouchers: ['TEMPEST20'] });
    const unchanged = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(unchanged.vouchers).toEqual([{ code: 'TEMPEST20' }]);
  });

  it('a combinable voucher cannot join a stand-alone one either; applying the same code again is still a no-op', async () => {
    const cart = await createCart(engine, [concert(1)]);
    cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    errorOf(await applyVoucher(engine, cart.id, 'LUCKY50'), 400, 'INVALID_VOUCHER', 'code');
    const again = cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    expect(again.vouchers).toEqual([{ code: 'WELCOME10' }]);
  });

  it('the four demo vouchers can no longer stack: at most the two combinable welcome offers', async () => {
    const cart = await createCart(engine, [seat('B3')]);
    const codes = ['WELCOME10', 'FIVEOFF', 'TEMPEST20', 'LUCKY50'];
    const statuses = [];
    for (const code of codes) statuses.push((await applyVoucher(engine, cart.id, code)).status);
    expect(statuses).toEqual([200, 200, 400, 400]);
    const priced = cartOf(await engine.request('GET', `/carts/${cart.id}`));
    expect(priced.total.amount).toBeGreaterThan(0);
  });

  it('the catalog export carries combinable: true for the combinable vouchers only', async () => {
    const response = await engine.request<{ data: CatalogDocument }>('GET', '/catalog');
    const byCode = new Map((response.body.data.vouchers ?? []).map((voucher) => [voucher.code, voucher]));
    expect(byCode.get('WELCOME10')?.combinable).toBe(true);
    expect(byCode.get('LUCKY50')?.combinable).toBeUndefined();
  });

  it('holds at checkout too: vouchers that stopped combining after a re-import answer 400 and charge nothing', async () => {
    const cart = await createCart(engine, [concert(1)]);
    cartOf(await applyVoucher(engine, cart.id, 'WELCOME10'));
    const both = cartOf(await applyVoucher(engine, cart.id, 'FIVEOFF'));
    const imported = await engine.request('PUT', '/catalog', {
      body: withVouchers((vouchers) => vouchers.map((voucher) => (voucher.code === 'FIVEOFF' ? { code: 'FIVEOFF', amountOff: eur(500) } : voucher))),
    });
    expect(imported.status).toBe(200);
    const refused = expectError(await checkout(engine, cart.id, both.total, cash()), 400, 'INVALID_VOUCHER', 'vouchers');
    expect(refused.details).toMatchObject({ reason: 'not_combinable' });
    expect(await count(engine, `SELECT COUNT(*) AS n FROM orders WHERE cart_id = '${cart.id}'`)).toBe(0);
    expect(await count(engine, "SELECT COALESCE(SUM(redeemed), 0) AS n FROM vouchers WHERE code IN ('WELCOME10', 'FIVEOFF')")).toBe(0);
  });
});

describe('a total of 0 needs no payment', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
    const imported = await engine.request('PUT', '/catalog', { body: withVouchers((vouchers) => [...vouchers, { code: 'FREE', percentOff: 100 }]) });
    expect(imported.status).toBe(200);
  });
  afterAll(() => engine.close());

  async function freeCart() {
    const cart = await createCart(engine, [concert(2)]);
    const free = cartOf(await applyVoucher(engine, cart.id, 'FREE'));
    expect(free.total).toEqual(eur(0));
    return free;
  }

  it('a card "payment" of 0 asks no provider: the order is paid with none and the provider has no charge', async () => {
    const cart = await freeCart();
    const order = orderOf(await checkout(engine, cart.id, eur(0), card('tok_visa')));
    expect(order.payment).toEqual({ method: 'none', status: 'captured', amount: eur(0) });
    expect(order.tickets).toHaveLength(2);
    expect(await count(engine, 'SELECT COUNT(*) AS n FROM psp_charges')).toBe(0);
  });

  it('payment.method none is accepted for 0 and refused for anything else (400 payment_required)', async () => {
    const cart = await freeCart();
    const order = orderOf(await engine.request('POST', '/orders', {
      body: { cartId: cart.id, expectedTotal: eur(0), payment: { method: 'none' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    }));
    expect(order.payment.method).toBe('none');

    const paid = await createCart(engine, [concert(1)]);
    const refused = expectError(await engine.request('POST', '/orders', {
      body: { cartId: paid.id, expectedTotal: paid.total, payment: { method: 'none' } },
      headers: { 'idempotency-key': crypto.randomUUID() },
    }), 400, 'INVALID_FIELD_VALUE', 'payment.method');
    expect(refused.details).toMatchObject({ reason: 'payment_required' });
  });

  it('cancelling a free order refunds nothing through the provider and reads refunded at once', async () => {
    const cart = await freeCart();
    const order = orderOf(await checkout(engine, cart.id, eur(0), cash()));
    const cancelled = orderOf(await engine.request('POST', `/orders/${order.id}/cancel`), 200);
    expect(cancelled.payment).toMatchObject({ method: 'none', status: 'refunded' });
  });
});

describe('RISK_CHECK_FAILED ends the cart\'s checkout for every method (spec §7.3)', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('after tok_risk, cash and another card answer 403 RISK_CHECK_FAILED and no order is made', async () => {
    const cart = await createCart(engine, [concert(1)]);
    expectError(await checkout(engine, cart.id, cart.total, card('tok_risk')), 403, 'RISK_CHECK_FAILED');
    expectError(await checkout(engine, cart.id, cart.total, cash()), 403, 'RISK_CHECK_FAILED');
    expectError(await checkout(engine, cart.id, cart.total, card('tok_visa')), 403, 'RISK_CHECK_FAILED');
    expect(await count(engine, `SELECT COUNT(*) AS n FROM orders WHERE cart_id = '${cart.id}'`)).toBe(0);
    expect(await count(engine, 'SELECT COUNT(*) AS n FROM psp_charges')).toBe(0);
  });

  it('staff can release the declined cart: DELETE 204 and its stock is back', async () => {
    const before = await available(engine, 'brass-2027-03-12', 'standing');
    const cart = await createCart(engine, [concert(2)]);
    expectError(await checkout(engine, cart.id, cart.total, card('tok_risk')), 403, 'RISK_CHECK_FAILED');
    expect((await engine.request('DELETE', `/carts/${cart.id}`)).status).toBe(204);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(before);
  });

  it('another cart of the same customer is not affected', async () => {
    const cart = await createCart(engine, [concert(1)]);
    orderOf(await checkout(engine, cart.id, cart.total, cash()));
  });
});

describe('3-D Secure results are bound to the cart and the attempt', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('a result approved for one cart does not pay for another cart of the same amount', async () => {
    const first = await createCart(engine, [concert(1)]);
    const second = await createCart(engine, [concert(1)]);
    expect(second.total).toEqual(first.total);
    const { reference } = challengeOf(await checkout(engine, first.id, first.total, card('tok_3ds')));
    const result = await authenticationResultOf(engine, reference, 'approve');

    expectError(await checkout(engine, second.id, second.total, card('tok_declined', result)), 402, 'PAYMENT_DECLINED');
    expect(await count(engine, `SELECT COUNT(*) AS n FROM orders WHERE cart_id = '${second.id}'`)).toBe(0);

    const order = orderOf(await checkout(engine, first.id, first.total, card('tok_3ds', result)));
    expect(order.payment).toMatchObject({ method: 'card', authenticated: true });
  });

  it('a result is spent by one attempt: using it again for the same cart after a cancel is declined', async () => {
    const cart = await createCart(engine, [concert(1)]);
    const { reference } = challengeOf(await checkout(engine, cart.id, cart.total, card('tok_3ds')));
    const result = await authenticationResultOf(engine, reference, 'approve');
    const order = orderOf(await checkout(engine, cart.id, cart.total, card('tok_3ds', result)));
    expect(await count(engine, `SELECT COUNT(*) AS n FROM psp_challenges WHERE reference = '${reference}' AND used_by = '${order.payment.reference}'`)).toBe(1);
    const other = await createCart(engine, [concert(1)]);
    expectError(await checkout(engine, other.id, other.total, card('tok_3ds', result)), 402, 'PAYMENT_DECLINED');
  });
});

describe('cash tendered has an upper bound', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('a small sale takes up to the total plus 500 major units; one cent more is 400 more_than_max_tendered', async () => {
    const cart = await createCart(engine, [concert(1)]); // 3900; 10 × 3900 = 39000 < 3900 + 50000
    const refused = expectError(await checkout(engine, cart.id, cart.total, cash(eur(53_901))), 400, 'INVALID_FIELD_VALUE', 'payment.tendered.amount');
    expect(refused.details).toMatchObject({ reason: 'more_than_max_tendered', maxTendered: eur(53_900) });
    const order = orderOf(await checkout(engine, cart.id, cart.total, cash(eur(53_900))));
    expect(order.payment.change).toEqual(eur(50_000));
  });

  it('a large sale takes up to ten times the total', async () => {
    const cart = await createCart(engine, [concert(20)]); // 78000; 10 × = 780000 > 78000 + 50000
    expectError(await checkout(engine, cart.id, cart.total, cash(eur(780_001))), 400, 'INVALID_FIELD_VALUE', 'payment.tendered.amount');
    orderOf(await checkout(engine, cart.id, cart.total, cash(eur(780_000))));
  });
});
