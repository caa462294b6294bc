import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { balanceOf, parts, sellGiftCard, ticketCart } from '../helpers/gift-cards';
import { card, cash, checkout, eur, expectError, newKey, orderOf, ordersOfCart, type Order } from '../helpers/orders';
import { closeShift, openShift } from '../helpers/shifts';

/**
 * `--require-shift` (contract §14; the desktop box office's default): a cash checkout — also the cash remainder of a
 * split with gift cards — or a cash refund with no open shift answers 409 SHIFT_NOT_OPEN, before anything is held,
 * charged or given back, and the idempotency key stays unused. Card sales and card refunds need no shift. The UI
 * config tells the box office (`requireShift`).
 */
describe('serve --require-shift', () => {
  let engine: TestEngine;
  let uiDir: string;
  beforeAll(async () => {
    uiDir = mkdtempSync(join(tmpdir(), 'kassa-ui-'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Kassa</title>');
    engine = await startTestEngine({ requireShift: true, uiDir });
  });
  afterAll(async () => {
    await engine.close();
    rmSync(uiDir, { recursive: true, force: true });
  });

  it('refuses a cash checkout with no open shift (409 SHIFT_NOT_OPEN): nothing sold, the key unused', async () => {
    const cart = await ticketCart(engine, 2);
    const before = await available(engine, 'brass-2027-03-12', 'standing');
    const key = newKey();
    expectError(await checkout(engine, cart.id, cart.total, cash(), { idempotencyKey: key }), 409, 'SHIFT_NOT_OPEN');
    expect(await ordersOfCart(engine, cart.id)).toEqual([]);
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(before);
    // the same key again, the same answer: nothing was kept of the refused attempt
    expectError(await checkout(engine, cart.id, cart.total, cash(), { idempotencyKey: key }), 409, 'SHIFT_NOT_OPEN');

    const shift = await openShift(engine, eur(10_000));
    const order = orderOf(await checkout(engine, cart.id, cart.total, cash(), { idempotencyKey: key }));
    expect(order.payment).toMatchObject({ method: 'cash', status: 'captured', amount: cart.total });
    await closeShift(engine, shift.id, eur(10_000 + cart.total.amount));
  });

  it('sells by card with no shift; refuses the cash remainder of a gift-card split, the card untouched', async () => {
    const byCard = await ticketCart(engine, 1);
    expect(orderOf(await checkout(engine, byCard.id, byCard.total, card())).payment.method).toBe('card');

    const { code } = await sellGiftCard(engine, 'gift-25');
    const cart = await ticketCart(engine, 2);
    expect(cart.total.amount).toBeGreaterThan(2_500);
    const key = newKey();
    expectError(await checkout(engine, cart.id, cart.total, { method: 'cash', giftCards: parts([code]) }, { idempotencyKey: key }), 409, 'SHIFT_NOT_OPEN');
    expect(await balanceOf(engine, code)).toBe(2_500);
    expect(await ordersOfCart(engine, cart.id)).toEqual([]);

    // the gift card paying the whole total is no cash
    const whole = await sellGiftCard(engine, 'gift-50');
    const small = await createCart(engine, [concert(1, 'standing-adult')]);
    expect(orderOf(await checkout(engine, small.id, small.total, { method: 'cash', giftCards: parts([whole.code]) })).payment.method).toBe('giftCard');

    const shift = await openShift(engine, eur(0));
    const split = orderOf(await checkout(engine, cart.id, cart.total, { method: 'cash', giftCards: parts([code]) }, { idempotencyKey: key }));
    expect(split.payment.method).toBe('cash');
    const counted = split.payment.amount.amount;
    await closeShift(engine, shift.id, eur(counted));
  });

  it('refuses a cash refund with no open shift (the order stays as it was); a card refund needs none', async () => {
    const shift = await openShift(engine, eur(5_000));
    const cart = await ticketCart(engine, 1);
    const sold = orderOf(await checkout(engine, cart.id, cart.total, cash()));
    await closeShift(engine, shift.id, eur(5_000 + cart.total.amount));
    const seats = await available(engine, 'brass-2027-03-12', 'standing');

    expectError(await engine.request('POST', `/orders/${sold.id}/cancel`), 409, 'SHIFT_NOT_OPEN');
    const still = await engine.request<{ data: Order }>('GET', `/orders/${sold.id}`);
    expect(still.body.data).toMatchObject({ status: 'confirmed', payment: { method: 'cash', status: 'captured' } });
    expect(await available(engine, 'brass-2027-03-12', 'standing')).toBe(seats);

    const byCard = await ticketCart(engine, 1);
    const cardOrder = orderOf(await checkout(engine, byCard.id, byCard.total, card()));
    expect((await engine.request<{ data: Order }>('POST', `/orders/${cardOrder.id}/cancel`)).body.data.status).toBe('cancelled');

    const next = await openShift(engine, eur(5_000));
    const cancelled = await engine.request<{ data: Order }>('POST', `/orders/${sold.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', payment: { method: 'cash', status: 'refunded' } });
    await closeShift(engine, next.id, eur(5_000 - cart.total.amount));
  });

  it('tells the box office in its UI config', async () => {
    const response = await fetch(`${engine.url}/ui-config.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { requireShift: unknown }).requireShift).toBe(true);
  });
});

describe('without --require-shift', () => {
  it('sells and refunds cash with no shift open, and says so in the UI config', async () => {
    const uiDir = mkdtempSync(join(tmpdir(), 'kassa-ui-'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Kassa</title>');
    const engine = await startTestEngine({ uiDir });
    try {
      const cart = await ticketCart(engine, 1);
      const order = orderOf(await checkout(engine, cart.id, cart.total, cash()));
      expect((await engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`)).body.data.status).toBe('cancelled');
      expect(((await (await fetch(`${engine.url}/ui-config.json`)).json()) as { requireShift: unknown }).requireShift).toBe(false);
    } finally {
      await engine.close();
      rmSync(uiDir, { recursive: true, force: true });
    }
  });
});
