import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { eur, expectError, type Order } from '../helpers/orders';
import { readBalance, buyGiftCard, getGiftCard } from '../helpers/gift-cards';

/**
 * A hub's side of gift cards for its terminals (contract §10, §13): holds within a terminal's checkout, their
 * release, the import that settles them into the imported order's redemptions, a synced cancellation that puts
 * them back, and a card sold on a terminal issued at the hub under the terminal's code.
 */

interface Hold { reference: string; cards: { code: string; amount: { amount: number; currency: string } }[]; released?: boolean }
interface ImportResult { status: number; order?: Order; replayed?: boolean; error?: { code: string; param?: string } }

let hub: TestEngine;
let terminal: string;
beforeAll(async () => {
  hub = await startTestEngine();
  terminal = await hub.createKey(['orders:import', 'orders:write', 'orders:read', 'carts:write']);
});
afterAll(() => hub.close());

const standing = (quantity: number) => ({ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity });

function hold(body: unknown, key = terminal) {
  return hub.request<{ data: Hold }>('POST', '/hub/gift-card-holds', { key, body });
}

function release(reference: string, key = terminal) {
  return hub.request<{ data: Hold }>('POST', `/hub/gift-card-holds/${encodeURIComponent(reference)}/release`, { key });
}

async function importOrder(order: Record<string, unknown>): Promise<ImportResult> {
  const answer = await hub.request<{ data: { results: ImportResult[] } }>('POST', '/orders/import', {
    key: terminal,
    body: { orders: [{ idempotencyKey: crypto.randomUUID(), reference: `ord_${crypto.randomUUID()}`, ...order }] },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const [result] = answer.body.data.results;
  if (!result) throw new Error('no import result');
  return result;
}

describe('POST /hub/gift-card-holds and its release', () => {
  it('holds the parts (out of the balance at once), answers the same holds for the same reference, and releases them once', async () => {
    const { code } = await buyGiftCard(hub);
    const reference = `pay_${crypto.randomUUID()}`;
    const body = { reference, currency: 'EUR', cards: [{ code: code.toLowerCase() }], total: eur(3900) };
    const first = await hold(body);
    expect(first.status).toBe(200);
    // with what the card has left right after the part (a terminal's receipt prints it)
    expect(first.body.data).toEqual({ reference, cards: [{ code, amount: eur(3900), balanceAfter: eur(1100) }] });
    expect(await readBalance(hub, code)).toBe(1100);
    const again = await hold(body);
    expect(again.body.data).toEqual(first.body.data);
    expect(await readBalance(hub, code)).toBe(1100);
    expect((await release(reference)).body.data).toEqual({ reference, cards: [], released: true });
    expect(await readBalance(hub, code)).toBe(5000);
    expect((await release(reference)).body.data).toEqual({ reference, cards: [], released: false });
    expect((await getGiftCard(hub, code)).body.data.transactions).toEqual([]);
  });

  it('refuses as a checkout would, needs the orders:import scope, and is not served by a plain v3 service', async () => {
    const { code } = await buyGiftCard(hub, 'gift-25');
    expectError(await hold({ reference: 'r1', currency: 'EUR', cards: [{ code, amount: eur(3000) }], total: eur(3900) }), 402, 'GIFT_CARD_INSUFFICIENT_BALANCE', 'cards[0]');
    expectError(await hold({ reference: 'r2', currency: 'EUR', cards: [{ code: 'NOSUCHCODE' }], total: eur(3900) }), 404, 'GIFT_CARD_NOT_FOUND', 'cards[0].code');
    expectError(await hold({ reference: 'r3', currency: 'USD', cards: [{ code }], total: { amount: 3900, currency: 'USD' } }), 400, 'GIFT_CARD_CURRENCY_MISMATCH', 'cards[0].code');
    const noImport = await hub.createKey(['orders:write', 'carts:write']);
    expectError(await hold({ reference: 'r4', currency: 'EUR', cards: [{ code }], total: eur(3900) }, noImport), 403, 'INSUFFICIENT_PERMISSIONS');
    expect(await readBalance(hub, code)).toBe(2500);
    const plain = await startTestEngine({ capabilities: false });
    try {
      expect((await plain.request('POST', '/hub/gift-card-holds', { body: { reference: 'r', currency: 'EUR', cards: [{ code }], total: eur(1) } })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('the import of a terminal order paid partly by gift card', () => {
  it('settles the holds into the imported order\'s redemptions exactly once; a synced cancellation puts them back', async () => {
    const { code } = await buyGiftCard(hub);
    const reference = `pay_${crypto.randomUUID()}`;
    await hold({ reference, currency: 'EUR', cards: [{ code, amount: eur(3000) }], total: eur(7800) });
    const order = { idempotencyKey: crypto.randomUUID(), reference: `ord_${crypto.randomUUID()}`, items: [standing(2)], expectedTotal: eur(7800),
      payment: { holdReference: reference, giftCards: [{ code, amount: eur(3000) }] } };
    const imported = await importOrder(order);
    expect(imported.status, JSON.stringify(imported)).toBe(201);
    expect(imported.order?.payment).toMatchObject({ method: 'external', amount: eur(4800), giftCards: [{ code, amount: eur(3000), balanceAfter: eur(2000) }] });
    const replay = await importOrder(order);
    expect(replay).toMatchObject({ status: 201, replayed: true });
    const card = (await getGiftCard(hub, code)).body.data;
    expect(card.balance).toEqual(eur(2000));
    expect(card.transactions).toEqual([expect.objectContaining({ orderId: imported.order?.id, amount: eur(-3000) })]);
    // the holds are the order's now: a late release of the reference leaves them, a repeated hold answers them
    expect((await release(reference)).body.data).toMatchObject({ released: false, cards: [{ code, amount: eur(3000) }] });
    expect(await readBalance(hub, code)).toBe(2000);
    // the terminal's cancellation reaches the hub as POST /orders/{id}/cancel
    const cancelled = await hub.request<{ data: Order }>('POST', `/orders/${imported.order?.id ?? ''}/cancel`, { key: terminal });
    expect(cancelled.status).toBe(200);
    expect(await readBalance(hub, code)).toBe(5000);
  });

  it('holds again when the holds were released meanwhile; refuses parts that are not the ones held', async () => {
    const { code } = await buyGiftCard(hub);
    const reference = `pay_${crypto.randomUUID()}`;
    await hold({ reference, currency: 'EUR', cards: [{ code, amount: eur(1000) }], total: eur(3900) });
    const mismatch = await importOrder({ items: [standing(1)], expectedTotal: eur(3900), payment: { holdReference: reference, giftCards: [{ code, amount: eur(1500) }] } });
    expect(mismatch).toMatchObject({ status: 400, error: { code: 'INVALID_FIELD_VALUE', param: 'orders[0].payment.giftCards' } });
    expect(await readBalance(hub, code)).toBe(4000);
    await release(reference);
    const imported = await importOrder({ items: [standing(1)], expectedTotal: eur(3900), payment: { holdReference: reference, giftCards: [{ code, amount: eur(1000) }] } });
    expect(imported.status).toBe(201);
    expect(await readBalance(hub, code)).toBe(4000);
  });

  it('a gift card sold on a terminal is issued at the hub under the terminal\'s code, spendable there', async () => {
    const terminalCode = 'TERMINALCARD00000001';
    const imported = await importOrder({
      items: [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-25', quantity: 1 }],
      expectedTotal: eur(2500),
      giftCardCodes: [terminalCode],
    });
    expect(imported.status).toBe(201);
    expect(imported.order?.giftCards).toEqual([expect.objectContaining({ code: terminalCode, value: eur(2500), status: 'active' })]);
    expect(await readBalance(hub, terminalCode)).toBe(2500);
  });
});

describe("a terminal's holds are its own", () => {
  it('need orders:import (the terminal key\'s scope); another terminal can neither see nor release them', async () => {
    const { code } = await buyGiftCard(hub, 'gift-50');
    const reference = `pay_${crypto.randomUUID()}`;
    const body = { reference, currency: 'EUR', cards: [{ code, amount: eur(1500) }], total: eur(3000) };

    const reader = await hub.createKey(['orders:read', 'carts:write']);
    expectError(await hold(body, reader), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await release(reference, reader), 403, 'INSUFFICIENT_PERMISSIONS');

    const held = await hold(body);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(await readBalance(hub, code)).toBe(3500);

    // another terminal with the same reference: its own, empty namespace — it holds anew, and its release of the
    // reference drops only its own hold
    const other = await hub.createKey(['orders:import', 'orders:write', 'orders:read', 'carts:write']);
    const otherRelease = await release(reference, other);
    expect(otherRelease.status).toBe(200);
    expect(otherRelease.body.data).toMatchObject({ cards: [], released: false });
    expect(await readBalance(hub, code)).toBe(3500);

    const mine = await release(reference);
    expect(mine.body.data.released).toBe(true);
    expect(await readBalance(hub, code)).toBe(5000);
  });
});
