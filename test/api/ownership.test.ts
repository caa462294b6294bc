import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, cartOf, concert, type Cart } from '../helpers/cart-assertions';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { card, cash, checkout, eur, expectError, orderOf, type Order, type OrdersPage } from '../helpers/orders';

/**
 * Ownership (issue #22): a key reads, changes and deletes only its own carts, and reads, lists, prints and
 * cancels only its own orders unless `orders:any` grants every order. Another key's cart or order answers
 * exactly what an unknown one does.
 */

const TILL = ['catalog:read', 'carts:write', 'orders:read', 'orders:write'];

describe("another key's carts are not found", () => {
  let engine: TestEngine;
  let mine: string;
  let theirs: string;
  let cart: Cart;
  beforeAll(async () => {
    engine = await startTestEngine();
    mine = await engine.createKey(TILL);
    theirs = await engine.createKey(TILL);
    cart = cartOf(await engine.request('POST', '/carts', { key: mine, body: { items: [concert(2)] } }), 201);
  });
  afterAll(() => engine.close());

  const unknown = (path: string) => path.replace(/\/carts\/[^/]+/, '/carts/crt_unknown');
  const routes = (id: string): [string, string, unknown][] => [
    ['GET', `/carts/${id}`, undefined],
    ['PATCH', `/carts/${id}`, { currency: 'USD' }],
    ['POST', `/carts/${id}/items`, { items: [{ extraId: 'parking', quantity: 1 }] }],
    ['POST', `/carts/${id}/vouchers`, { code: 'WELCOME10' }],
    ['DELETE', `/carts/${id}`, undefined],
  ];

  it('reads, changes, extends and deletes nothing of it: 404 RESOURCE_NOT_FOUND, the answer an unknown cart gets', async () => {
    for (const [method, path, body] of routes(cart.id)) {
      const answer = await engine.request<ErrorEnvelope>(method, path, { key: theirs, ...(body !== undefined && { body }) });
      expectError(answer, 404, 'RESOURCE_NOT_FOUND', 'cartId');
      const ofUnknown = await engine.request<ErrorEnvelope>(method, unknown(path), { key: theirs, ...(body !== undefined && { body }) });
      expect({ status: answer.status, body: answer.body }, `${method} ${path}`).toEqual({ status: ofUnknown.status, body: ofUnknown.body });
    }
  });

  it('cannot check it out, nor release it as its previousCartId; its owner still can', async () => {
    expectError(await checkout(engine, cart.id, cart.total, cash(), { apiKey: theirs }), 404, 'RESOURCE_NOT_FOUND', 'cartId');
    const before = await available(engine, 'brass-2027-03-12', 'standing');
    const replacing = await engine.request('POST', '/carts', { key: theirs, body: { items: [concert(1)], previousCartId: cart.id } });
    expect(replacing.status).toBe(201);
    // the other cart's 2 places are still held: only the new one's place left the stock
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(before - 1);
    const read = await engine.request('GET', `/carts/${cart.id}`, { key: mine });
    expect(read.status).toBe(200);
    expect(cartOf(read).items.find((item) => item.type === 'admission')?.quantity).toBe(2);
    expect(orderOf(await checkout(engine, cart.id, cart.total, cash(), { apiKey: mine })).cartId).toBe(cart.id);
  });
});

describe("another key's orders are not found, unless orders:any", () => {
  let engine: TestEngine;
  let mine: string;
  let theirs: string;
  let staff: string;
  let order: Order;
  let stockAfterSale: number;
  beforeAll(async () => {
    engine = await startTestEngine();
    mine = await engine.createKey(TILL);
    theirs = await engine.createKey(TILL);
    staff = await engine.createKey([...TILL, 'orders:any']);
    const cart = cartOf(await engine.request('POST', '/carts', { key: mine, body: { items: [concert(2)] } }), 201);
    order = orderOf(await checkout(engine, cart.id, cart.total, card(), { apiKey: mine }));
    stockAfterSale = await available(engine, 'brass-2027-03-12', 'standing');
  });
  afterAll(() => engine.close());

  it('reads, prints and cancels nothing of it, and the places stay sold', async () => {
    for (const [method, path] of [
      ['GET', `/orders/${order.id}`],
      ['GET', `/orders/${order.id}/tickets.pdf`],
      ['POST', `/orders/${order.id}/print`],
      ['POST', `/orders/${order.id}/cancel`],
    ] as const) {
      const answer = await engine.request(method, path, { key: theirs, ...(method === 'POST' && { body: {} }) });
      expectError(answer, 404, 'RESOURCE_NOT_FOUND', 'orderId');
    }
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(stockAfterSale);
    const read = await engine.request<{ data: Order }>('GET', `/orders/${order.id}`, { key: mine });
    expect(read.body.data.status).toBe('confirmed');
  });

  it('lists and finds by ticket code only its own orders', async () => {
    const code = order.tickets[0]?.code ?? '';
    const theirList = await engine.request<OrdersPage>('GET', '/orders?limit=200', { key: theirs });
    expect(theirList.body.data.map((listed) => listed.id)).not.toContain(order.id);
    expect((await engine.request<OrdersPage>('GET', `/orders?ticketCode=${code}`, { key: theirs })).body.data).toEqual([]);
    expect((await engine.request<OrdersPage>('GET', '/orders?limit=200', { key: mine })).body.data.map((listed) => listed.id)).toEqual([order.id]);
    expect((await engine.request<OrdersPage>('GET', `/orders?ticketCode=${code}`, { key: mine })).body.data.map((found) => found.id)).toEqual([order.id]);
  });

  it('a key with orders:any (the box office) lists, finds and cancels any order; the places go back once', async () => {
    const code = order.tickets[0]?.code ?? '';
    expect((await engine.request<OrdersPage>('GET', '/orders?limit=200', { key: staff })).body.data.map((listed) => listed.id)).toContain(order.id);
    expect((await engine.request<OrdersPage>('GET', `/orders?ticketCode=${code}`, { key: staff })).body.data.map((found) => found.id)).toEqual([order.id]);
    const cancelled = await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`, { key: staff });
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(stockAfterSale + 2);
    // its owner sees the cancellation
    expect((await engine.request<{ data: Order }>('GET', `/orders/${order.id}`, { key: mine })).body.data.status).toBe('cancelled');
  });

  it('orders:any is refused to nobody it was not given to: a plain orders:read key still 404s', async () => {
    const reader = await engine.createKey(['orders:read']);
    expectError(await engine.request('GET', `/orders/${order.id}`, { key: reader }), 404, 'RESOURCE_NOT_FOUND');
    expect((await engine.request<OrdersPage>('GET', '/orders', { key: reader })).body.data).toEqual([]);
  });

  it('the cash checkout stays with orders:write: an orders:checkout key pays by card only (403 with requiredScope)', async () => {
    const kiosk = await engine.createKey(['carts:write', 'orders:checkout']);
    const cart = cartOf(await engine.request('POST', '/carts', { key: kiosk, body: { items: [concert(1)] } }), 201);
    const refused = expectError(await checkout(engine, cart.id, cart.total, cash(), { apiKey: kiosk }), 403, 'INSUFFICIENT_PERMISSIONS', 'payment.method');
    expect(refused.details?.requiredScope).toBe('orders:write');
    const sold = orderOf(await checkout(engine, cart.id, cart.total, card(), { apiKey: kiosk }));
    expect(sold.total).toEqual(eur(3900));
    expect((await engine.request('GET', `/orders/${sold.id}`, { key: kiosk })).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/orders'],
      ['POST', `/orders/${sold.id}/cancel`],
      ['GET', '/print-jobs'],
      ['POST', '/sync/conflicts/1/retry'],
      ['GET', '/sync/holdings'],
    ] as const) {
      const answer = await engine.request(method, path, { key: kiosk, ...(method === 'POST' && { body: {} }) });
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
    expectError(await engine.request('GET', `/orders/${order.id}`, { key: kiosk }), 404, 'RESOURCE_NOT_FOUND');
  });
});
