import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GiftCardView, Order } from '../../renderer/src/api/types';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * Gift cards as payment (issue #24, contract §9 and §13) in the browser: a split sale at the box office from the
 * keyboard alone (two gift cards, the rest in cash), its refund question part by part, the staff balance check,
 * and the kiosk taking a gift card on its keypad and a bank card for the rest. The real engine and the built UI.
 */

const CONCERT_12 = 'Friday, 12 March 2027 at 20:30';
const KIOSK = 'mode=kiosk&idle=300';

const isFocused = (locator: Locator): Promise<boolean> => locator.evaluate((element) => element === document.activeElement);
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
const masked = (code: string) => `****${code.slice(-4)}`;

/** A gift-card order placed through the API (paid cash at the box office). */
async function giftCardOrder(ui: UiHarness, priceOptionId: 'gift-25' | 'gift-50' | 'gift-100'): Promise<Order> {
  const cart = await ui.engine.request<{ data: { id: string; total: unknown } }>('POST', '/carts', {
    body: { items: [{ occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId, quantity: 1 }] },
  });
  expect(cart.status, JSON.stringify(cart.body)).toBe(201);
  const order = await ui.engine.request<{ data: Order }>('POST', '/orders', {
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } },
  });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  return order.body.data;
}

/** A gift card sold through the API: its code. */
async function sellGiftCard(ui: UiHarness, priceOptionId: 'gift-25' | 'gift-50' | 'gift-100'): Promise<string> {
  const code = (await giftCardOrder(ui, priceOptionId)).giftCards[0]?.code;
  if (!code) throw new Error('the gift-card order issued no code');
  return code;
}

async function giftCard(ui: UiHarness, code: string): Promise<GiftCardView> {
  const answer = await ui.engine.request<{ data: GiftCardView }>('GET', `/gift-cards/${code}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

async function orderOnScreen(page: Page, ui: UiHarness): Promise<Order> {
  const heading = page.getByRole('heading', { name: /^Order confirmed/ });
  await heading.waitFor();
  const orderId = (await heading.locator('.order-id').innerText()).trim();
  const response = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

/** From a fresh box office page, the keyboard alone: Enter on the first date, 1 adult, Enter holds. */
async function holdOneAdult(page: Page): Promise<void> {
  await expect.poll(() => focusedLabel(page)).toBe(CONCERT_12);
  await page.keyboard.press('Enter');
  const adult = page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true });
  await expect.poll(() => isFocused(adult)).toBe(true);
  await page.keyboard.press('1');
  await page.keyboard.press('Enter');
  await page.getByRole('timer').waitFor();
}

const leftToPay = (page: Page) => page.getByRole('status', { name: 'Left to pay' });
const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe('gift cards as payment in the browser (#24)', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('box office: two gift cards and the rest in cash, from the keyboard alone; the refund question part by part', { timeout: 60_000 }, async () => {
    const first = await sellGiftCard(ui, 'gift-25');
    const second = await sellGiftCard(ui, 'gift-25');
    const page = await ui.open('boxOffice');
    await page.getByText(/F7 gift card/).waitFor(); // the key is named beside the others
    await expect.poll(() => focusedLabel(page)).toBe(CONCERT_12);
    await page.keyboard.press('Enter');
    const adult = page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true });
    await expect.poll(() => isFocused(adult)).toBe(true);
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await page.getByRole('timer').waitFor();

    // F7: the gift-card step, the cursor in its code field; a keyboard-wedge scan is characters, then Enter.
    await page.keyboard.press('F7');
    const field = page.getByRole('textbox', { name: 'Gift card code' });
    await expect.poll(() => isFocused(field)).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay with gift card', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.type(first);
    await page.keyboard.press('Enter');
    await expect.poll(() => leftToPay(page).innerText()).toBe('€53.00');
    await page.getByText(`Gift card ${masked(first)}`).waitFor();
    await page.getByText('Balance €25.00, left on the card after this sale: €0.00').waitFor();
    await screenshot(page, 'gift-card-01-box-office-step');
    await expectAccessible(page, 'box office gift-card step');

    // A second card: the cursor stayed in the field.
    await expect.poll(() => isFocused(field)).toBe(true);
    await page.keyboard.type(second.toLowerCase()); // the engine matches a code in any case
    await page.keyboard.press('Enter');
    await expect.poll(() => leftToPay(page).innerText()).toBe('€28.00');
    await page.getByText(`Gift card ${masked(second)}`).waitFor();

    // F2 and Enter: the rest in cash, exactly.
    await page.keyboard.press('F2');
    const tendered = page.getByRole('textbox', { name: 'Amount tendered (EUR)' });
    await expect.poll(() => isFocused(tendered)).toBe(true);
    expect(await tendered.getAttribute('placeholder')).toBe('28.00');
    await page.keyboard.press('Enter');
    const order = await orderOnScreen(page, ui);
    expect(order.total).toEqual(eur(7800));
    expect(order.payment).toMatchObject({ method: 'cash', amount: eur(2800) });
    expect(order.payment.giftCards?.map((part) => ({ code: part.code.toUpperCase(), amount: part.amount }))).toEqual([
      { code: first.toUpperCase(), amount: eur(2500) },
      { code: second.toUpperCase(), amount: eur(2500) },
    ]);
    // The confirmation shows each part and the balance left on its card.
    await page.getByText(`Gift card ${masked(first)}: €25.00 · Balance left €0.00`).waitFor();
    await page.getByText(`Gift card ${masked(second)}: €25.00 · Balance left €0.00`).waitFor();
    expect((await giftCard(ui, first)).balance).toEqual(eur(0));
    await screenshot(page, 'gift-card-02-box-office-confirmation');

    // The refund question says where each part goes back.
    await page.keyboard.press('F8');
    const query = page.getByRole('searchbox', { name: 'Order id or ticket code' });
    await expect.poll(() => isFocused(query)).toBe(true);
    await page.keyboard.type(order.id);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Order ${order.id}` }).waitFor();
    await page.getByText(`Paid €25.00 by gift card ${masked(first)} · Paid €25.00 by gift card ${masked(second)} · Paid €28.00 in cash`).waitFor();
    await page.getByRole('button', { name: 'Cancel order and refund' }).click();
    const ask = page.getByRole('dialog', { name: `Cancel order ${order.id} and refund?` });
    await ask.getByText(`€25.00 goes back onto gift card ${masked(first)}.`).waitFor();
    await ask.getByText(`€25.00 goes back onto gift card ${masked(second)}.`).waitFor();
    await ask.getByText('Hand back €28.00 in cash. The tickets stop being valid.').waitFor();
    await expectAccessible(page, 'refund question of a split order');
    await ask.getByRole('button', { name: 'Cancel and refund €78.00' }).click();
    await page.getByRole('status').filter({ hasText: 'Cancelled and refunded — hand back €28.00 in cash' }).waitFor();
    expect((await giftCard(ui, first)).balance).toEqual(eur(2500));
    expect((await giftCard(ui, second)).balance).toEqual(eur(2500));
  });

  it('box office: a card that covers it all completes the sale with the gift card alone', async () => {
    const code = await sellGiftCard(ui, 'gift-100');
    const page = await ui.open('boxOffice');
    await holdOneAdult(page);
    await page.keyboard.press('F7');
    await expect.poll(() => isFocused(page.getByRole('textbox', { name: 'Gift card code' }))).toBe(true);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect.poll(() => leftToPay(page).innerText()).toBe('€0.00');
    const complete = page.getByRole('button', { name: 'Complete sale', exact: true });
    await expect.poll(() => isFocused(complete)).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay cash', exact: true }).isDisabled()).toBe(true);
    await page.keyboard.press('Enter');
    const order = await orderOnScreen(page, ui);
    expect(order.payment).toMatchObject({ method: 'giftCard', amount: eur(3900) });
    await page.getByText(`Gift card ${masked(code)}: €39.00 · Balance left €61.00`).waitFor();
  });

  it('box office: an unknown code is said, and nothing is taken', async () => {
    const page = await ui.open('boxOffice');
    await holdOneAdult(page);
    await page.keyboard.press('F7');
    await expect.poll(() => isFocused(page.getByRole('textbox', { name: 'Gift card code' }))).toBe(true);
    await page.keyboard.type('NOSUCHCARD0000000000');
    await page.keyboard.press('Enter');
    await page.locator('[role="alert"][data-code="GIFT_CARD_NOT_FOUND"]').waitFor();
    expect(await leftToPay(page).count()).toBe(0);
    // the refused code stays in the field, to be corrected
    expect(await page.getByRole('textbox', { name: 'Gift card code' }).inputValue()).toBe('NOSUCHCARD0000000000');
    await page.getByText('Please check the entry.').waitFor();
  });

  it('box office: the balance check shows the balance, the status and every transaction', async () => {
    const code = await sellGiftCard(ui, 'gift-50');
    // spend €39.00 of it through the API
    const cart = await ui.engine.request<{ data: { id: string; total: unknown } }>('POST', '/carts', {
      body: { items: [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] },
    });
    const spent = await ui.engine.request<{ data: Order }>('POST', '/orders', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'giftCard', giftCards: [{ code }] } },
    });
    expect(spent.status, JSON.stringify(spent.body)).toBe(201);

    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: 'Gift card balance', exact: true }).click();
    await page.getByRole('heading', { name: 'Gift card balance' }).waitFor();
    const field = page.getByRole('textbox', { name: 'Gift card code' });
    await expect.poll(() => isFocused(field)).toBe(true);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Balance €11.00 · valid' }).waitFor();
    await page.getByText('Sold for €50.00').waitFor();
    const rows = page.locator('table.gift-card-transactions tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(spent.body.data.id);
    expect(await rows.first().innerText()).toContain('-€39.00');
    await screenshot(page, 'gift-card-03-balance-check');
    await expectAccessible(page, 'gift-card balance check');

    // An unknown code is said as the engine says it.
    await field.fill('NOSUCHCARD0000000000');
    await page.keyboard.press('Enter');
    await page.locator('[role="alert"][data-code="GIFT_CARD_NOT_FOUND"]').waitFor();
    await expectAccessible(page, 'gift-card balance check, unknown code');

    // A card whose order was cancelled before it was used is void: it says so, with nothing to spend.
    const issuer = await giftCardOrder(ui, 'gift-25');
    expect((await ui.engine.request('POST', `/orders/${issuer.id}/cancel`)).status).toBe(200);
    await field.fill(issuer.giftCards[0]?.code ?? '');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Balance €0.00 · void, cannot be used' }).waitFor();
  });

  it('kiosk: a gift card on the keypad, then a bank card for the rest', { timeout: 60_000 }, async () => {
    const code = await sellGiftCard(ui, 'gift-25');
    const page = await ui.open('kiosk', KIOSK);
    await page.getByRole('button', { name: 'Touch to start' }).click();
    await page.getByRole('button', { name: CONCERT_12, exact: true }).click();
    const standing = page.getByRole('region', { name: 'Standing', exact: true });
    await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
    await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('heading', { name: 'Review and pay' }).waitFor();

    await page.getByRole('button', { name: 'Pay with gift card', exact: true }).click();
    const field = page.getByRole('textbox', { name: 'Gift card code' });
    await field.waitFor();
    expect(await field.getAttribute('inputmode')).toBe('none'); // no system keyboard over the screen
    // The keypad for most of it, a keyboard (or scanner) for the rest: both land in the same field.
    const keypad = page.getByRole('group', { name: 'Keypad' });
    for (const key of code.slice(0, -4)) await keypad.getByRole('button', { name: key, exact: true }).click();
    await page.keyboard.type(code.slice(-4));
    expect(await field.inputValue()).toBe(code);
    await screenshot(page, 'gift-card-04-kiosk-keypad');
    await expectAccessible(page, 'kiosk gift-card step');
    await page.getByRole('button', { name: 'Use gift card', exact: true }).click();
    await expect.poll(() => leftToPay(page).innerText()).toBe('€53.00');
    await page.getByText('Balance €25.00, left on the card after this sale: €0.00').waitFor();
    // The card does not cover it: the kiosk asks for a bank card for the rest.
    await page.getByText('Your gift card does not cover it all. Please pay the rest, €53.00, by bank card.').waitFor();
    await screenshot(page, 'gift-card-05-kiosk-rest-by-card');
    await expectAccessible(page, 'kiosk gift card with the rest by card');
    const testCard = page.getByRole('combobox', { name: 'Test card' });
    expect(await testCard.locator('option').allInnerTexts()).not.toContain('tok_visa'); // outcomes, never tokens
    await testCard.selectOption({ label: 'Approved' });
    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    const order = await orderOnScreen(page, ui);
    expect(order.payment).toMatchObject({ method: 'card', amount: eur(5300) });
    expect(order.payment.giftCards?.map((part) => part.amount)).toEqual([eur(2500)]);
    await page.getByText(`Gift card ${masked(code)}: €25.00 · Balance left €0.00`).waitFor();
    expect((await giftCard(ui, code)).balance).toEqual(eur(0));

    // At the box office, its refund question: the gift-card part back onto the card, the rest to the bank card.
    const staff = await ui.open('boxOffice');
    await staff.getByRole('button', { name: 'Orders', exact: true }).click();
    await staff.getByRole('searchbox', { name: 'Order id or ticket code' }).fill(order.id);
    await staff.keyboard.press('Enter');
    await staff.getByRole('button', { name: 'Cancel order and refund' }).click();
    const ask = staff.getByRole('dialog', { name: `Cancel order ${order.id} and refund?` });
    await ask.getByText(`€25.00 goes back onto gift card ${masked(code)}.`).waitFor();
    await ask.getByText('€53.00 goes back to the card it was paid with. The tickets stop being valid.').waitFor();
    await ask.getByRole('button', { name: 'Cancel and refund €78.00' }).click();
    await staff.getByRole('status').filter({ hasText: 'Cancelled and refunded' }).waitFor();
    expect((await giftCard(ui, code)).balance).toEqual(eur(2500));
  });

  it('kiosk: a declined bank card for the rest takes nothing off the gift card', async () => {
    const code = await sellGiftCard(ui, 'gift-25');
    const page = await ui.open('kiosk', KIOSK);
    await page.getByRole('button', { name: 'Touch to start' }).click();
    await page.getByRole('button', { name: CONCERT_12, exact: true }).click();
    await page.getByRole('region', { name: 'Standing', exact: true }).getByRole('button', { name: 'One more Adult', exact: true }).click();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('button', { name: 'Pay with gift card', exact: true }).click();
    // a scanner: characters, then Enter, into the field that has the focus
    await expect.poll(() => isFocused(page.getByRole('textbox', { name: 'Gift card code' }))).toBe(true);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect.poll(() => leftToPay(page).innerText()).toBe('€14.00');
    await page.getByRole('combobox', { name: 'Test card' }).selectOption({ label: 'Declined' });
    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Please try another card.' }).waitFor();
    expect((await giftCard(ui, code)).balance).toEqual(eur(2500));
    // still offered, with the same rest to pay
    expect(await leftToPay(page).innerText()).toBe('€14.00');
  });
});
