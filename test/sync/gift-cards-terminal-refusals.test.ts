import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST, waitForSynced, waitUntil } from './harness';
import { getGiftCard, readBalance } from '../helpers/gift-cards';
import { checkout, orderCount, outboxKinds, sellGiftCard, startGiftRig, ticketCart, type GiftRig } from './gift-card-helpers';

/**
 * Issue #24 at a terminal: what the hub refuses is answered as the hub answers it (with the checkout's param), a
 * refusal found once the parts are held releases them, and the quote reads the balances at the hub. (The hub's
 * holds ask for the terminal key's own orders:import: test/api/gift-cards-hub.test.ts.)
 */

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe('gift-card refusals at a terminal', () => {
  let rig: GiftRig;
  beforeAll(async () => {
    rig = await startGiftRig({ sync: FAST });
  });
  afterAll(() => rig.close());

  const releases = () => outboxKinds(rig.terminal.dataDir).filter((entry) => entry.kind === 'gift-card-release').length;

  it('an unknown code is the hub\'s 404 with the checkout\'s param; nothing is held, the key stays unused', async () => {
    const before = { orders: await orderCount(rig.terminal), releases: releases() };
    const cart = await ticketCart(rig.terminal, 1);
    const key = crypto.randomUUID();
    const refused = await checkout(rig.terminal, cart, { method: 'cash', giftCards: [{ code: 'NO-SUCH-CARD' }] }, key);
    expect(refused.status, JSON.stringify(refused.body)).toBe(404);
    expect(refused.body.error).toMatchObject({ type: 'NOT_FOUND_ERROR', code: 'GIFT_CARD_NOT_FOUND', param: 'payment.giftCards[0].code' });
    expect({ orders: await orderCount(rig.terminal), releases: releases() }).toEqual(before);
    // the same key pays without the card
    const paid = await checkout(rig.terminal, cart, { method: 'cash' }, key);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const read = await getGiftCard(rig.terminal, 'NO-SUCH-CARD');
    expect(read.status).toBe(404);
    expect(read.body.error).toMatchObject({ code: 'GIFT_CARD_NOT_FOUND', param: 'code' });
  });

  it('method giftCard the cards do not cover: 402 with details.remaining, and the hold goes back at the hub', async () => {
    const { code } = await sellGiftCard(rig.hub);
    const before = releases();
    const refused = await checkout(rig.terminal, await ticketCart(rig.terminal, 2), { method: 'giftCard', giftCards: [{ code }] });
    expect(refused.status, JSON.stringify(refused.body)).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'GIFT_CARD_INSUFFICIENT_BALANCE', param: 'payment.giftCards', details: { remaining: eur(2000) } });
    expect(releases()).toBe(before + 1);
    await waitUntil(async () => (await readBalance(rig.hub, code)) === 5000, 20_000, 'the hold to be released');
  });

  it('cash tendered short of what the cards leave open: 400, and the hold goes back at the hub', async () => {
    const { code } = await sellGiftCard(rig.hub);
    const refused = await checkout(rig.terminal, await ticketCart(rig.terminal, 2), { method: 'cash', tendered: eur(1500), giftCards: [{ code }] });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_FIELD_VALUE', param: 'payment.tendered.amount', details: { reason: 'less_than_total', total: eur(2000) } });
    await waitUntil(async () => (await readBalance(rig.hub, code)) === 5000, 20_000, 'the hold to be released');
  });

  it('the quote reads the balances at the hub; offline it is 503', async () => {
    const { code } = await sellGiftCard(rig.hub);
    const cart = await ticketCart(rig.terminal, 2);
    const quote = await rig.terminal.request<{ data: unknown }>('POST', `/carts/${cart.id}/gift-card-quote`, { body: { giftCards: [{ code: code.toLowerCase() }] } });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.data).toEqual({ parts: [{ code, amount: eur(5000), balance: eur(5000), balanceAfter: eur(0) }], remaining: eur(2000) });
    const unknown = await rig.terminal.request('POST', `/carts/${cart.id}/gift-card-quote`, { body: { giftCards: [{ code }, { code: 'NOPE' }] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 'GIFT_CARD_NOT_FOUND', param: 'giftCards[1].code' } });
    rig.proxy.setDown(true);
    try {
      const offline = await rig.terminal.request('POST', `/carts/${cart.id}/gift-card-quote`, { body: { giftCards: [{ code }] } });
      expect(offline.status).toBe(503);
      expect(offline.body).toMatchObject({ error: { code: 'UPSTREAM_UNAVAILABLE' } });
    } finally {
      rig.proxy.setDown(false);
    }
    await waitForSynced(rig.terminal, 20_000);
    expect(outboxKinds(rig.terminal.dataDir).filter((entry) => entry.state !== 'delivered')).toEqual([]);
  });
});
