import { afterEach, describe, expect, it } from 'vitest';
import type { TestEngine } from '../helpers/engine';
import { GIFT } from '../helpers/gift-catalog';
import { getGiftCard, readBalance } from '../helpers/gift-cards';
import { FAST, allOrders, waitForSynced, waitUntil, type Order } from './harness';
import {
  checkout,
  orderCount,
  outboxKinds,
  sellGiftCard,
  startGiftRig,
  ticketCart,
  type GiftRig,
} from './gift-card-helpers';

/**
 * Issue #24, contract §13 and §10: at a terminal the gift cards live at its hub. Its balance is read there, a
 * checkout's parts are held there within the request, and offline a gift-card payment is refused with 503
 * UPSTREAM_UNAVAILABLE — nothing charged, nothing lost. The hub's ledger settles the parts with the order's
 * import exactly once; a failed remainder releases the hold through the outbox; a cancellation puts them back.
 */

const eur = (amount: number) => ({ amount, currency: 'EUR' });

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function rig(options: Parameters<typeof startGiftRig>[0] = {}): Promise<GiftRig> {
  const started = await startGiftRig(options);
  cleanup.push(() => started.close());
  return started;
}

/** The hub's order imported for a terminal's order (its payment reference is the terminal's order id). */
async function importedAt(hub: TestEngine, localId: string): Promise<Order | undefined> {
  return (await allOrders(hub)).find((order) => order.payment.method === 'external' && order.payment.reference === localId);
}

/** Waits until the terminal holds places of the show (its allocation), so it can sell them offline. */
async function waitForPlaces(terminal: TestEngine): Promise<void> {
  await waitUntil(
    async () => {
      const answer = await terminal.request<{ data: { holdings: { inventoryItemId: string; sellable: number }[] } }>('GET', '/sync/holdings');
      return (answer.body.data.holdings.find((row) => row.inventoryItemId === GIFT.inventoryItemId)?.sellable ?? 0) >= 4;
    },
    20_000,
    'places in hand',
  );
}

describe('gift cards at a terminal', () => {
  it('at the shipped sync defaults: a card sold at the hub pays part of a terminal sale, cash the rest; the hub settles it once', async () => {
    const { hub, terminal } = await rig();
    const { code } = await sellGiftCard(hub);

    // The terminal answers what the hub answers (asked within the request), typed as a customer would.
    const read = await getGiftCard(terminal, code.toLowerCase());
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data).toMatchObject({ code, currency: 'EUR', initial: eur(5000), balance: eur(5000), status: 'active', transactions: [] });

    const cart = await ticketCart(terminal, 2);
    expect(cart.total).toEqual(eur(7000));
    const placed = await checkout(terminal, cart, { method: 'cash', tendered: eur(2500), giftCards: [{ code }] });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const order = placed.body.data;
    // each part with what the card had left right after it (the receipt prints it), as the hub held it
    expect(order.payment).toMatchObject({ method: 'cash', status: 'captured', amount: eur(2000), tendered: eur(2500), change: eur(500), giftCards: [{ code, amount: eur(5000), balanceAfter: eur(0) }] });
    expect(order.total).toEqual(eur(7000));

    // Held at the hub at once: spent nowhere else meanwhile.
    expect(await readBalance(hub, code)).toBe(0);
    const again = await checkout(terminal, await ticketCart(terminal, 1), { method: 'cash', giftCards: [{ code, amount: eur(1000) }] });
    expect(again.status, JSON.stringify(again.body)).toBe(402);
    expect(again.body.error).toMatchObject({ code: 'GIFT_CARD_INSUFFICIENT_BALANCE', param: 'payment.giftCards[0]' });

    const status = await waitForSynced(terminal, 30_000);
    expect(status.conflicts).toEqual([]);
    const imported = await importedAt(hub, order.id);
    expect(imported?.total).toEqual(eur(7000));
    const after = await getGiftCard(hub, code);
    expect(after.body.data.balance).toEqual(eur(0));
    // exactly one redemption, of the imported order
    expect(after.body.data.transactions).toEqual([{ at: expect.any(String), orderId: imported?.id, amount: eur(-5000) }]);
    // the terminal's order still shows its parts
    const local = await terminal.request<{ data: Order }>('GET', `/orders/${order.id}`);
    expect(local.body.data.payment).toMatchObject({ method: 'cash', amount: eur(2000), giftCards: [{ code, amount: eur(5000) }] });
  }, 60_000);

  it('offline it is refused with 503 and nothing is lost; other sales go on; the same key works once the hub is back', async () => {
    const { hub, terminal, proxy } = await rig({ sync: FAST });
    const { code } = await sellGiftCard(hub);
    await waitForPlaces(terminal);
    const before = await orderCount(terminal);

    proxy.setDown(true);
    const read = await getGiftCard(terminal, code);
    expect(read.status).toBe(503);
    expect(read.body.error).toMatchObject({ type: 'SERVICE_UNAVAILABLE', code: 'UPSTREAM_UNAVAILABLE' });

    const cart = await ticketCart(terminal, 2);
    const key = crypto.randomUUID();
    const refused = await checkout(terminal, cart, { method: 'card', token: 'tok_visa', giftCards: [{ code }] }, key);
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(await orderCount(terminal)).toBe(before);

    // the terminal's other sales are not affected
    const cash = await checkout(terminal, await ticketCart(terminal, 1), { method: 'cash' });
    expect(cash.status, JSON.stringify(cash.body)).toBe(201);

    proxy.setDown(false);
    expect(await readBalance(hub, code)).toBe(5000);
    // nothing was charged and the key was not used up: the same request goes through now
    const retried = await checkout(terminal, cart, { method: 'card', token: 'tok_visa', giftCards: [{ code }] }, key);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body.data.payment).toMatchObject({ method: 'card', amount: eur(2000), giftCards: [{ code, amount: eur(5000) }] });

    const status = await waitForSynced(terminal, 30_000);
    expect(status.conflicts).toEqual([]);
    expect(await importedAt(hub, cash.body.data.id)).toBeDefined();
    const imported = await importedAt(hub, retried.body.data.id);
    const card = await getGiftCard(hub, code);
    expect(card.body.data.balance).toEqual(eur(0));
    expect(card.body.data.transactions).toEqual([{ at: expect.any(String), orderId: imported?.id, amount: eur(-5000) }]);
    // every release the refused attempt left went out
    expect(outboxKinds(terminal.dataDir).filter((entry) => entry.state !== 'delivered')).toEqual([]);
  }, 60_000);

  it('with the hub stopped it is refused with 503, nothing reached the hub (no release to send), and it pays once the hub is back', async () => {
    const { hub, terminal } = await rig({ sync: FAST, direct: true });
    const { code } = await sellGiftCard(hub);
    const cart = await ticketCart(terminal, 2);
    await hub.stop();
    const read = await getGiftCard(terminal, code);
    expect(read.status).toBe(503);
    expect(read.body.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { reason: 'hub_unreachable' } });
    const key = crypto.randomUUID();
    const refused = await checkout(terminal, cart, { method: 'cash', giftCards: [{ code }] }, key);
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { reason: 'hub_unreachable' } });
    // the connection never opened: the hub holds nothing, there is nothing to release
    expect(outboxKinds(terminal.dataDir).filter((entry) => entry.kind === 'gift-card-release')).toEqual([]);
    expect(await orderCount(terminal)).toBe(0);

    await hub.start();
    expect(await readBalance(hub, code)).toBe(5000);
    const paid = await checkout(terminal, cart, { method: 'cash', giftCards: [{ code }] }, key);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.payment).toMatchObject({ method: 'cash', amount: eur(2000), giftCards: [{ code, amount: eur(5000) }] });
    await waitForSynced(terminal, 30_000);
    expect((await getGiftCard(hub, code)).body.data.transactions).toHaveLength(1);
  }, 60_000);

  it('the remainder declined at a terminal: the hold is released at the hub once the release has synced', async () => {
    const { hub, terminal } = await rig({ sync: FAST });
    const { code } = await sellGiftCard(hub);
    const cart = await ticketCart(terminal, 2);
    const declined = await checkout(terminal, cart, { method: 'card', token: 'tok_declined', giftCards: [{ code }] });
    expect(declined.status, JSON.stringify(declined.body)).toBe(402);
    expect(declined.body.error).toMatchObject({ code: 'PAYMENT_DECLINED' });

    const releases = outboxKinds(terminal.dataDir).filter((entry) => entry.kind === 'gift-card-release');
    expect(releases).toHaveLength(1);
    await waitUntil(async () => (await readBalance(hub, code)) === 5000, 20_000, 'the hold to be released at the hub');
    await waitForSynced(terminal, 20_000);
    expect(outboxKinds(terminal.dataDir).filter((entry) => entry.kind === 'gift-card-release').map((entry) => entry.state)).toEqual(['delivered']);
    const card = await getGiftCard(hub, code);
    expect(card.body.data).toMatchObject({ balance: eur(5000), transactions: [] });

    // and the card pays in full on a new attempt
    const paid = await checkout(terminal, await ticketCart(terminal, 1), { method: 'giftCard', giftCards: [{ code }] });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.payment).toMatchObject({ method: 'giftCard', amount: eur(3500), giftCards: [{ code, amount: eur(3500), balanceAfter: eur(1500) }] });
    expect(await readBalance(hub, code)).toBe(1500);
  }, 60_000);

  it('a card sold on a terminal is spendable at the hub once its order has synced', async () => {
    const { hub, terminal } = await rig({ sync: FAST });
    const { code } = await sellGiftCard(terminal);
    await waitForSynced(terminal, 20_000);

    expect(await readBalance(hub, code)).toBe(5000);
    const cart = await ticketCart(hub, 2);
    const paid = await checkout(hub, cart, { method: 'cash', giftCards: [{ code }] });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.payment).toMatchObject({ method: 'cash', amount: eur(2000), giftCards: [{ code, amount: eur(5000) }] });
    // the terminal reads the card at the hub
    const read = await getGiftCard(terminal, code);
    expect(read.body.data.balance).toEqual(eur(0));
  }, 60_000);

  it('a cancellation on the terminal syncs and puts the parts back at the hub', async () => {
    const { hub, terminal } = await rig({ sync: FAST });
    const { code } = await sellGiftCard(hub);
    const placed = await checkout(terminal, await ticketCart(terminal, 2), { method: 'cash', giftCards: [{ code }] });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await waitForSynced(terminal, 20_000);
    expect(await readBalance(hub, code)).toBe(0);

    const cancelled = await terminal.request<{ data: Order }>('POST', `/orders/${placed.body.data.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await waitForSynced(terminal, 20_000);
    const card = await getGiftCard(hub, code);
    expect(card.body.data.balance).toEqual(eur(5000));
    expect(card.body.data.transactions.map((entry) => entry.amount.amount)).toEqual([-5000, 5000]);
  }, 60_000);
});
