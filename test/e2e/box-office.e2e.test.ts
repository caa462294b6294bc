import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, signInStaff, startUi, type UiHarness } from './browser';

/**
 * Box-office mode end to end: the real engine with a fresh database and the demo catalog, the built UI in
 * headless Chromium at 1366×768. Every figure asserted is worked out by hand from the demo prices and
 * checked against what the engine itself answers (its HTTP responses to the UI, and GET /carts, /orders).
 */

interface Money {
  amount: number;
  currency: string;
}
interface CartView {
  id: string;
  currency: string;
  total: Money;
  vouchers: { code: string }[];
  items: { type: string; name: string; quantity: number; extraId?: string }[];
}
interface OrderView {
  id: string;
  cartId: string;
  status: 'confirmed' | 'cancelled';
  currency: string;
  total: Money;
  payment: { method: 'card' | 'cash'; status: string; amount: Money; authenticated?: boolean; tendered?: Money; change?: Money };
  tickets: { id: string; code: string }[];
}
interface InventoryView {
  areas: { id: string; priceOptions: { id: string; name: string; price: Money }[]; inventoryItems: { id: string; available: number }[] }[];
}
interface ErrorView {
  error: { type: string; code: string; message: string };
}

const CONCERT_12 = 'Friday, 12 March 2027 at 20:30';
const CONCERT_13 = 'Saturday, 13 March 2027 at 20:30';
const TEMPEST_2 = 'Friday, 2 April 2027 at 20:00';

/** What the UI shows for an amount: en-GB, the currency's own scale (the engine sends minor units). */
function shown(amount: number, currency: string): string {
  const scale = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency, minimumFractionDigits: scale, maximumFractionDigits: scale }).format(amount / 10 ** scale);
}

/** The status and JSON body (if any) of the engine's next answer to METHOD on a path matching PATH. */
async function answer<T>(page: Page, method: string, path: RegExp, action: () => Promise<void>): Promise<{ status: number; body: T }> {
  const [response] = await Promise.all([
    page.waitForResponse((candidate: Response) => candidate.request().method() === method && path.test(new URL(candidate.url()).pathname)),
    action(),
  ]);
  const text = response.status() === 204 ? '' : await response.text();
  return { status: response.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

async function chooseDate(page: Page, date: string): Promise<void> {
  await page.getByRole('button', { name: date, exact: true }).click();
  await page.getByRole('heading', { name: 'Tickets', exact: true }).waitFor();
}

/** Sets quantities in the Standing area with the +/- buttons and holds them; answers the engine's new cart. */
async function holdStanding(page: Page, quantities: { Adult?: number; Student?: number }): Promise<CartView> {
  const standing = page.getByRole('region', { name: 'Standing', exact: true });
  for (const [name, count] of Object.entries(quantities)) {
    for (let i = 0; i < count; i += 1) await standing.getByRole('button', { name: `One more ${name}`, exact: true }).click();
  }
  const created = await answer<{ data: CartView }>(page, 'POST', /\/api\/v3\/carts$/, () => page.getByRole('button', { name: 'Hold tickets', exact: true }).click());
  expect(created.status).toBe(201);
  await page.getByRole('timer').waitFor();
  return created.body.data;
}

const total = (page: Page): Locator => page.getByLabel('Total', { exact: true });
const alertWith = (page: Page, text: string): Locator => page.getByRole('alert').filter({ hasText: text });

async function engineCart(ui: UiHarness, cartId: string): Promise<CartView> {
  const response = await ui.engine.request<{ data: CartView }>('GET', `/carts/${cartId}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

async function engineOrder(ui: UiHarness, orderId: string): Promise<OrderView> {
  const response = await ui.engine.request<{ data: OrderView }>('GET', `/orders/${orderId}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

/** The order id shown next to the heading "Order confirmed". */
async function confirmedOrderId(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { name: /^Order confirmed/ });
  await heading.waitFor();
  const id = /\bord_[A-Za-z0-9_-]+/.exec((await heading.textContent()) ?? '')?.[0];
  expect(id, 'an order id beside "Order confirmed"').toBeDefined();
  return id ?? '';
}

const isFocused = (locator: Locator): Promise<boolean> => locator.evaluate((element) => element === document.activeElement);

describe('box office against the real engine', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('sells standing tickets with parking, WELCOME10 and a switch to USD, paid by card', async () => {
    const page = await ui.open('boxOffice');
    await page.getByText('Online', { exact: true }).waitFor();
    await page.getByText('Nothing held yet.').waitFor();
    await screenshot(page, 'box-office-01-start');
    await expectAccessible(page, 'start');

    await chooseDate(page, CONCERT_12);
    const cart = await holdStanding(page, { Adult: 2 });
    // 2 × €39.00
    expect(cart.total).toEqual({ amount: 7800, currency: 'EUR' });
    await expect.poll(() => total(page).textContent()).toBe(shown(7800, 'EUR'));
    await screenshot(page, 'box-office-02-tickets-chosen');
    await expectAccessible(page, 'tickets chosen');

    const withParking = await answer<{ data: CartView }>(page, 'POST', /\/items$/, () => page.getByRole('button', { name: 'Add Parking', exact: true }).click());
    // + €8.00 parking
    expect(withParking.body.data.total).toEqual({ amount: 8600, currency: 'EUR' });
    await expect.poll(() => total(page).textContent()).toBe(shown(8600, 'EUR'));

    await page.getByRole('textbox', { name: 'Voucher code' }).fill('WELCOME10');
    const withVoucher = await answer<{ data: CartView }>(page, 'POST', /\/vouchers$/, () => page.getByRole('button', { name: 'Apply', exact: true }).click());
    // − 10 % of the €78.00 ticket subtotal = €78.20
    expect(withVoucher.body.data.total).toEqual({ amount: 7820, currency: 'EUR' });
    await expect.poll(() => total(page).textContent()).toBe('€78.20');
    await page.getByRole('button', { name: 'Remove voucher WELCOME10' }).waitFor();
    await screenshot(page, 'box-office-03-cart-extras-voucher');
    await expectAccessible(page, 'cart with extras and voucher');

    const switched = await answer<{ data: CartView }>(page, 'PATCH', /\/carts\/[^/]+$/, () => page.getByRole('combobox', { name: 'Currency' }).selectOption('USD').then(() => undefined));
    // Each EUR unit price converted once at 1.0825, half away from zero: €39.00 → $42.22 (4221.75), €8.00 → $8.66;
    // tickets 2 × $42.22 = $84.44, 10 % of that = $8.44 (844.4): 8444 + 866 − 844 = $84.66.
    expect(switched.body.data.total).toEqual({ amount: 8466, currency: 'USD' });
    await expect.poll(() => total(page).textContent()).toBe(shown(8466, 'USD'));
    const held = await engineCart(ui, cart.id);
    expect(held.currency).toBe('USD');
    expect(held.total).toEqual({ amount: 8466, currency: 'USD' });
    expect(held.vouchers).toEqual([{ code: 'WELCOME10' }]);
    expect(held.items.find((item) => item.extraId === 'parking')?.quantity).toBe(1);

    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    const testCard = page.getByRole('combobox', { name: 'Test card' });
    expect(await testCard.inputValue()).toBe('tok_visa');
    await screenshot(page, 'box-office-04-card-step');
    await expectAccessible(page, 'card step');

    await page.getByRole('button', { name: `Charge card ${shown(8466, 'USD')}` }).click();
    const orderId = await confirmedOrderId(page);
    const order = await engineOrder(ui, orderId);
    expect(order.cartId).toBe(cart.id);
    expect(order.status).toBe('confirmed');
    expect(order.total).toEqual({ amount: 8466, currency: 'USD' });
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', amount: { amount: 8466, currency: 'USD' } });
    expect(order.tickets).toHaveLength(2);
    expect(await page.getByRole('img', { name: /^Ticket / }).count()).toBe(2);
    await expect.poll(() => total(page).textContent()).toBe(shown(8466, 'USD'));
    await screenshot(page, 'box-office-06-confirmation');
    await expectAccessible(page, 'confirmation');
  });

  it('prices the ticket choosers in the cart’s currency after a switch', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_12);
    await holdStanding(page, { Student: 1 });
    const switched = await answer<{ data: CartView }>(page, 'PATCH', /\/carts\/[^/]+$/, () => page.getByRole('combobox', { name: 'Currency' }).selectOption('USD').then(() => undefined));
    // €29.00 × 1.0825 = $31.39 (3139.25)
    expect(switched.body.data.total).toEqual({ amount: 3139, currency: 'USD' });
    await expect.poll(() => total(page).textContent()).toBe(shown(3139, 'USD'));
    const priced = await ui.engine.request<{ data: InventoryView }>('GET', '/occurrences/brass-2027-03-12/inventory?currency=USD');
    const adult = priced.body.data.areas.find((area) => area.id === 'standing')?.priceOptions.find((option) => option.id === 'standing-adult')?.price;
    // €39.00 × 1.0825 = $42.22 (4221.75)
    expect(adult).toEqual({ amount: 4222, currency: 'USD' });
    // The cart, its extras and the charge are in USD now; the prices beside the quantities should be too.
    const standing = page.getByRole('region', { name: 'Standing', exact: true });
    await expect
      .poll(() => standing.locator('label').filter({ hasText: /^Adult/ }).textContent(), { timeout: 3000, message: 'Standing › Adult price after switching the cart to USD' })
      .toBe(`Adult ${shown(4222, 'USD')}`);
  });

  it('sells two assigned seats for cash and shows the change due', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, TEMPEST_2);
    const stalls = page.getByRole('group', { name: 'Stalls', exact: true });
    await stalls.getByRole('button', { name: 'Row C, Seat 5, free', exact: true }).click();
    await stalls.getByRole('button', { name: 'Row C, Seat 5, in your cart', exact: true }).waitFor();
    const second = await answer<{ data: CartView }>(page, 'POST', /\/api\/v3\/carts$/, () => stalls.getByRole('button', { name: 'Row C, Seat 6, free', exact: true }).click());
    await stalls.getByRole('button', { name: 'Row C, Seat 6, in your cart', exact: true }).waitFor();
    // 2 × €45.00 full price
    expect(second.body.data.total).toEqual({ amount: 9000, currency: 'EUR' });
    expect((await engineCart(ui, second.body.data.id)).total).toEqual({ amount: 9000, currency: 'EUR' });
    await expect.poll(() => total(page).textContent()).toBe('€90.00');

    await page.getByRole('button', { name: 'Pay cash', exact: true }).click();
    const tendered = page.getByRole('textbox', { name: 'Amount tendered (EUR)' });
    await page.getByRole('group', { name: 'Quick cash' }).getByRole('button', { name: '€100.00', exact: true }).click();
    expect(await tendered.inputValue()).toBe('100.00');
    await page.getByRole('button', { name: 'Take payment', exact: true }).click();

    const orderId = await confirmedOrderId(page);
    // €100.00 tendered − €90.00 = €10.00 change
    await page.getByText('Change due: €10.00').waitFor();
    const order = await engineOrder(ui, orderId);
    expect(order.total).toEqual({ amount: 9000, currency: 'EUR' });
    expect(order.payment).toMatchObject({ method: 'cash', tendered: { amount: 10000, currency: 'EUR' }, change: { amount: 1000, currency: 'EUR' } });
    expect(order.tickets).toHaveLength(2);
    await screenshot(page, 'box-office-07-cash-confirmation-change');
    await expectAccessible(page, 'cash confirmation with change');

    const inventory = await ui.engine.request<{ data: InventoryView }>('GET', '/occurrences/tempest-2027-04-02/inventory');
    const seats = inventory.body.data.areas.find((area) => area.id === 'stalls')?.inventoryItems ?? [];
    expect(seats.filter((seat) => seat.id === 'C5' || seat.id === 'C6').map((seat) => seat.available)).toEqual([0, 0]);
  });

  it('completes a 3-D Secure challenge the cardholder approves', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_13);
    const cart = await holdStanding(page, { Student: 1 });
    expect(cart.total).toEqual({ amount: 2900, currency: 'EUR' });

    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    await page.getByRole('combobox', { name: 'Test card' }).selectOption('tok_3ds');
    const challenged = await answer<ErrorView>(page, 'POST', /\/api\/v3\/orders$/, () => page.getByRole('button', { name: 'Charge card €29.00' }).click());
    expect(challenged.status).toBe(402);
    expect(challenged.body.error.code).toBe('PAYMENT_AUTHENTICATION_REQUIRED');

    const dialog = page.getByRole('dialog', { name: 'Confirm the payment with the card issuer' });
    await dialog.waitFor();
    const approve = page.frameLocator('dialog iframe').getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    await screenshot(page, 'box-office-05-3ds-dialog');
    await expectAccessible(page, '3-D Secure dialog');

    await approve.click();
    const orderId = await confirmedOrderId(page);
    await dialog.waitFor({ state: 'detached' });
    const order = await engineOrder(ui, orderId);
    expect(order.cartId).toBe(cart.id);
    expect(order.total).toEqual({ amount: 2900, currency: 'EUR' });
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured', authenticated: true });
  });

  it('shows the decline when the cardholder rejects the 3-D Secure challenge, and keeps the cart', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_13);
    const cart = await holdStanding(page, { Student: 1 });

    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    await page.getByRole('combobox', { name: 'Test card' }).selectOption('tok_3ds');
    await page.getByRole('button', { name: 'Charge card €29.00' }).click();
    const reject = page.frameLocator('dialog iframe').getByRole('button', { name: 'Reject' });
    await reject.waitFor();
    const declined = await answer<ErrorView>(page, 'POST', /\/api\/v3\/orders$/, () => reject.click());
    expect(declined.status).toBe(402);
    expect(declined.body.error.code).toBe('PAYMENT_DECLINED');

    await alertWith(page, declined.body.error.message).waitFor();
    await alertWith(page, 'Please use another card or pay cash.').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.getByRole('heading', { name: /^Order confirmed/ }).count()).toBe(0);
    expect(await page.getByRole('timer').isVisible()).toBe(true);
    expect((await engineCart(ui, cart.id)).total).toEqual({ amount: 2900, currency: 'EUR' });
  });

  it('takes a second card after a decline', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_13);
    const cart = await holdStanding(page, { Adult: 1 });

    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    const testCard = page.getByRole('combobox', { name: 'Test card' });
    await testCard.selectOption('tok_declined');
    const declined = await answer<ErrorView>(page, 'POST', /\/api\/v3\/orders$/, () => page.getByRole('button', { name: 'Charge card €39.00' }).click());
    expect(declined.status).toBe(402);
    expect(declined.body.error.code).toBe('PAYMENT_DECLINED');
    await alertWith(page, declined.body.error.message).waitFor();
    await screenshot(page, 'box-office-09-error-declined');
    await expectAccessible(page, 'error state (card declined)');

    await testCard.selectOption('tok_visa');
    await page.getByRole('button', { name: 'Charge card €39.00' }).click();
    const orderId = await confirmedOrderId(page);
    const order = await engineOrder(ui, orderId);
    expect(order.cartId).toBe(cart.id);
    expect(order.total).toEqual({ amount: 3900, currency: 'EUR' });
    expect(order.payment).toMatchObject({ method: 'card', status: 'captured' });
  });

  it('keeps EUR and its total when CHF has no rate (503)', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_12);
    const cart = await holdStanding(page, { Student: 1 });
    expect(cart.total).toEqual({ amount: 2900, currency: 'EUR' });

    const currency = page.getByRole('combobox', { name: 'Currency' });
    const refused = await answer<ErrorView>(page, 'PATCH', /\/carts\/[^/]+$/, () => currency.selectOption('CHF').then(() => undefined));
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('CURRENCY_TEMPORARILY_UNAVAILABLE');
    await alertWith(page, refused.body.error.message).waitFor();
    expect(refused.body.error.message).toContain('CHF');

    await expect.poll(() => currency.inputValue()).toBe('EUR');
    expect(await total(page).textContent()).toBe('€29.00');
    const held = await engineCart(ui, cart.id);
    expect(held.currency).toBe('EUR');
    expect(held.total).toEqual({ amount: 2900, currency: 'EUR' });
    await screenshot(page, 'box-office-09-error-currency');
    await expectAccessible(page, 'error state (currency unavailable)');
  });

  it('finds an order by id and by ticket code, and cancels it with a refund', async () => {
    // The order to find is placed over the API, as another till would.
    const created = await ui.engine.request<{ data: CartView }>('POST', '/carts', {
      body: { items: [{ occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'D1', priceOptionId: 'stalls-concession', quantity: 1 }] },
    });
    expect(created.status).toBe(201);
    const placed = await ui.engine.request<{ data: OrderView }>('POST', '/orders', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { cartId: created.body.data.id, expectedTotal: created.body.data.total, payment: { method: 'cash' } },
    });
    expect(placed.status).toBe(201);
    const { id: orderId, tickets } = placed.body.data;
    const code = tickets[0]?.code ?? '';
    expect(placed.body.data.total).toEqual({ amount: 3200, currency: 'EUR' }); // one €32.00 concession

    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: 'Orders', exact: true }).click();
    const query = page.getByLabel('Order id or ticket code');
    await query.fill(orderId);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    await page.getByRole('status').filter({ hasText: /^Confirmed$/ }).waitFor();
    await page.getByText(`Ticket ${code}`).waitFor();
    await page.getByText('Total €32.00').waitFor();
    await screenshot(page, 'box-office-08-order-lookup');
    await expectAccessible(page, 'order look-up');

    await query.fill(code);
    const byCode = await answer<{ data: OrderView[] }>(page, 'GET', /\/api\/v3\/orders$/, () => page.getByRole('button', { name: 'Find', exact: true }).click());
    expect(byCode.body.data.map((order) => order.id)).toEqual([orderId]);
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();

    // A refund asks first, saying what to hand back and how; "Keep" changes nothing.
    await page.getByRole('button', { name: 'Cancel order and refund' }).click();
    const ask = page.getByRole('dialog', { name: `Cancel order ${orderId} and refund?` });
    await ask.getByText('Hand back €32.00 in cash. The tickets stop being valid.').waitFor();
    await screenshot(page, 'box-office-08b-refund-question');
    await expectAccessible(page, 'refund question');
    await ask.getByRole('button', { name: 'Keep', exact: true }).click();
    expect((await engineOrder(ui, orderId)).status).toBe('confirmed');
    await page.getByRole('button', { name: 'Cancel order and refund' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel and refund €32.00' }).click();
    await page.getByRole('status').filter({ hasText: 'Cancelled and refunded — hand back €32.00 in cash' }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel order and refund' }).count()).toBe(0);
    const cancelled = await engineOrder(ui, orderId);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.payment.status).toBe('refunded');
    const inventory = await ui.engine.request<{ data: InventoryView }>('GET', '/occurrences/tempest-2027-04-02/inventory');
    expect(inventory.body.data.areas.find((area) => area.id === 'stalls')?.inventoryItems.find((seat) => seat.id === 'D1')?.available).toBe(1);
  });

  it('answers the keyboard: F2 cash, F3 card, F4 voucher, Escape releases the cart', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_13);
    const cart = await holdStanding(page, { Adult: 1 });

    await page.keyboard.press('F2');
    const tendered = page.getByRole('textbox', { name: 'Amount tendered (EUR)' });
    await tendered.waitFor();
    expect(await page.getByRole('button', { name: 'Pay cash', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => isFocused(tendered)).toBe(true); // F2 puts the cursor in the amount

    await page.keyboard.press('F3');
    await page.getByRole('combobox', { name: 'Test card' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pay by card', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('textbox', { name: 'Amount tendered (EUR)' }).count()).toBe(0);
    await expect.poll(() => isFocused(page.getByRole('button', { name: 'Charge card €39.00' }))).toBe(true);

    await page.keyboard.press('F4');
    const voucher = page.getByRole('textbox', { name: 'Voucher code' });
    await expect.poll(() => isFocused(voucher)).toBe(true);

    // Escape asks before it releases; Escape again (or Keep) keeps the cart.
    await page.keyboard.press('Escape');
    const ask = page.getByRole('dialog', { name: 'Release the held tickets?' });
    await ask.waitFor();
    await screenshot(page, 'box-office-13-release-question');
    await expectAccessible(page, 'release question');
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    expect((await engineCart(ui, cart.id)).id).toBe(cart.id);
    await page.keyboard.press('Escape');
    const released = await answer<undefined>(page, 'DELETE', /\/carts\/[^/]+$/, () => ask.getByRole('button', { name: 'Release tickets', exact: true }).click());
    expect(released.status).toBe(204);
    await page.getByText('Nothing held yet.').waitFor();
    expect(await page.getByRole('timer').count()).toBe(0);
    const gone = await ui.engine.request<ErrorView>('GET', `/carts/${cart.id}`);
    expect(gone.status).toBe(410);
  });

  it('switches to German and French, and shows the engine’s own German message', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_12);
    const cart = await holdStanding(page, { Adult: 1 });

    await page.getByRole('combobox', { name: /^Language/ }).selectOption('de');
    await page.getByRole('button', { name: 'Mit Karte zahlen', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Bar zahlen', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByRole('textbox', { name: 'Rabattcode' }).fill('NOPE');
    const refused = await answer<ErrorView>(page, 'POST', /\/vouchers$/, () => page.getByRole('button', { name: 'Einlösen', exact: true }).click());
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_VOUCHER');
    const english = await ui.engine.request<ErrorView>('POST', `/carts/${cart.id}/vouchers`, { body: { code: 'NOPE' }, headers: { 'accept-language': 'en' } });
    expect(english.body.error.code).toBe('INVALID_VOUCHER');
    expect(refused.body.error.message).not.toBe(english.body.error.message);
    expect(refused.body.error.message).toMatch(/Rabattcode/);
    await alertWith(page, refused.body.error.message).waitFor();
    await screenshot(page, 'box-office-10-german-error');
    await expectAccessible(page, 'German UI with an engine error');

    await page.getByRole('combobox', { name: /^Sprache/ }).selectOption('fr');
    await page.getByRole('button', { name: 'Payer par carte' }).waitFor();
    await page.getByRole('button', { name: 'Payer en espèces', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Commandes', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
  });
  it('sells 2 standing tickets for cash in 4 keys after the date: 2, Enter, F2, Enter', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_13);
    const adult = page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true });
    await expect.poll(() => isFocused(adult)).toBe(true); // a date puts the cursor in its first quantity
    let keys = 0;
    const press = async (key: string) => {
      await page.keyboard.press(key);
      keys += 1;
    };
    await press('2');
    const created = await answer<{ data: CartView }>(page, 'POST', /\/api\/v3\/carts$/, () => press('Enter'));
    expect(created.status).toBe(201);
    expect(created.body.data.total).toEqual({ amount: 7800, currency: 'EUR' }); // 2 × €39.00
    await page.getByRole('timer').waitFor();
    await press('F2');
    const placed = await answer<{ data: OrderView }>(page, 'POST', /\/api\/v3\/orders$/, () => press('Enter')); // empty amount: exact
    expect(placed.status).toBe(201);
    expect(keys).toBeLessThanOrEqual(4);
    const orderId = await confirmedOrderId(page);
    const order = await engineOrder(ui, orderId);
    expect(order).toMatchObject({ cartId: created.body.data.id, total: { amount: 7800, currency: 'EUR' }, payment: { method: 'cash', status: 'captured' } });
    expect(order.tickets).toHaveLength(2);
  });

  it('keeps the pay bar in view at 1366×768 with a long cart, and shows the change while the amount is typed', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_12);
    await holdStanding(page, { Adult: 1, Student: 1 });
    for (const extra of ['Parking', 'Programme booklet', 'Drink voucher', 'Tour T-shirt']) {
      await answer(page, 'POST', /\/items$/, () => page.getByRole('button', { name: `Add ${extra}`, exact: true }).click());
    }
    await page.getByRole('textbox', { name: 'Voucher code' }).fill('WELCOME10');
    await answer(page, 'POST', /\/vouchers$/, () => page.getByRole('button', { name: 'Apply', exact: true }).click());
    // 3900 + 2900 + 800 + 500 + 450 + 2500 − 680 = 10370
    await expect.poll(() => total(page).textContent()).toBe('€103.70');
    for (const name of ['Pay cash', 'Pay by card']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= 768, `${name} at ${JSON.stringify(box)}`).toBe(true);
    }
    await page.keyboard.press('F2');
    const tendered = page.getByRole('textbox', { name: 'Amount tendered (EUR)' });
    await tendered.pressSequentially('150');
    await page.getByRole('status').filter({ hasText: 'Change due: €46.30' }).waitFor(); // 150.00 − 103.70, before paying
    await screenshot(page, 'box-office-14-long-cart-change-while-typing');
    await expectAccessible(page, 'long cart with the pay bar');
    const take = await page.getByRole('button', { name: 'Take payment', exact: true }).boundingBox();
    expect(take && take.y + take.height <= 768).toBe(true);
    const placed = await answer<{ data: OrderView }>(page, 'POST', /\/api\/v3\/orders$/, () => page.keyboard.press('Enter'));
    expect(placed.body.data.payment).toMatchObject({ tendered: { amount: 15000, currency: 'EUR' }, change: { amount: 4630, currency: 'EUR' } });
  });

  it('lists today’s sales with event, time and payment, and opens one', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, TEMPEST_2);
    await page.getByRole('group', { name: 'Stalls', exact: true }).getByRole('button', { name: 'Row F, Seat 1, free', exact: true }).click();
    await page.getByRole('timer').waitFor();
    await page.keyboard.press('F2');
    await page.keyboard.press('Enter');
    const orderId = await confirmedOrderId(page);
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    await page.keyboard.press('F8');
    const list = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Payment' }) });
    const row = list.getByRole('row').filter({ has: page.getByRole('button', { name: orderId }) });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain('The Tempest, Friday, 2 April 2027 at 20:00');
    expect(text).toContain('Cash');
    expect(text).toContain('€45.00');
    expect(text).toMatch(/\d{2}:\d{2}/);
    await screenshot(page, 'box-office-15-todays-sales');
    await expectAccessible(page, "today's sales");
    await row.getByRole('button', { name: orderId }).click();
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    await page.getByText('Paid €45.00 in cash').waitFor();
    await page.getByText(/Row F, Seat 1/).first().waitFor();
  });

  it('walks the seat map with the arrow keys from one Tab stop; legend and stage are shown', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, TEMPEST_2);
    const stalls = page.getByRole('group', { name: 'Stalls', exact: true });
    await stalls.getByRole('button', { name: /^Row A, Seat 1,/ }).waitFor();
    const tabStops = await stalls.locator('button[tabindex="0"]').count();
    expect(tabStops).toBe(1);
    const seats = await stalls.getByRole('button').count();
    expect(seats).toBeGreaterThan(20);
    await page.getByText('Stage', { exact: true }).first().waitFor();
    await page.getByRole('list', { name: 'Seat colours' }).first().waitFor();
    await stalls.getByRole('button', { name: /^Row A, Seat 1,/ }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(focused).toBe('Row B, Seat 3, free');
    const created = await answer<{ data: CartView }>(page, 'POST', /\/api\/v3\/carts$/, () => page.keyboard.press('Enter'));
    expect(created.status).toBe(201);
    await stalls.getByRole('button', { name: 'Row B, Seat 3, in your cart', exact: true }).waitFor();
    expect(await stalls.locator('button[tabindex="0"]').count()).toBe(1);
    await screenshot(page, 'box-office-16-seat-map-keyboard');
    await expectAccessible(page, 'seat map with keyboard focus');
    await page.getByRole('button', { name: 'Release cart' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Release tickets' }).click();
    await page.getByText('Nothing held yet.').waitFor();
  });

  it('asks before a seat on another date replaces the held tickets', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_12);
    const cart = await holdStanding(page, { Adult: 1 });
    await chooseDate(page, TEMPEST_2);
    const stalls = page.getByRole('group', { name: 'Stalls', exact: true });
    await stalls.getByRole('button', { name: 'Row G, Seat 1, free', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Replace the tickets held for another date?' });
    await ask.getByText('The cart holds 1 × Standing — Adult for another date. They will be released.').waitFor();
    await ask.getByRole('button', { name: 'Keep', exact: true }).click();
    expect((await engineCart(ui, cart.id)).total).toEqual({ amount: 3900, currency: 'EUR' });
    await stalls.getByRole('button', { name: 'Row G, Seat 1, free', exact: true }).click();
    const replaced = await answer<{ data: CartView }>(page, 'POST', /\/api\/v3\/carts$/, () => ask.getByRole('button', { name: 'Release them and continue' }).click());
    expect(replaced.body.data.total).toEqual({ amount: 4500, currency: 'EUR' });
    expect((await ui.engine.request('GET', `/carts/${cart.id}`)).status).toBe(410);
  });

  it('starts the next sale in the base currency after New sale', async () => {
    const page = await ui.open('boxOffice');
    await chooseDate(page, CONCERT_13);
    await holdStanding(page, { Student: 1 });
    await answer(page, 'PATCH', /\/carts\/[^/]+$/, () => page.getByRole('combobox', { name: 'Currency' }).selectOption('USD').then(() => undefined));
    await page.keyboard.press('F2');
    await page.keyboard.press('Enter');
    await confirmedOrderId(page);
    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    const next = await holdStanding(page, { Student: 1 });
    expect(next.currency).toBe('EUR');
    expect(await page.getByRole('combobox', { name: 'Currency' }).inputValue()).toBe('EUR');
  });

  it('shows showtimes on the venue’s clock (Europe/Berlin) on a till set to New York, confirmation included', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-GB', timezoneId: 'America/New_York' });
    try {
      const page = await context.newPage();
      await page.goto(`${ui.engine.url}/`);
      await signInStaff(page);
      // 19:30 UTC is 14:30 in New York that day; the venue's clock says 20:30.
      expect(await page.evaluate(() => new Date('2027-03-12T19:30:00Z').getHours())).toBe(14);
      await chooseDate(page, CONCERT_12);
      expect(await page.getByRole('button', { name: /14:30/ }).count()).toBe(0);
      await holdStanding(page, { Student: 1 });
      await page.keyboard.press('F2');
      await page.keyboard.press('Enter');
      await confirmedOrderId(page);
      await page.getByText(`${CONCERT_12}`, { exact: true }).first().waitFor();
      expect(await page.locator('.confirmation').innerText()).not.toContain('14:30');
    } finally {
      await context.close();
    }
  });

  it('shows the catalog in German: event, area and price-option names', async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('combobox', { name: /^Language/ }).selectOption('de');
    await page.getByRole('heading', { name: 'Midnight Brass — live im Konzert' }).waitFor();
    await page.getByRole('button', { name: 'Freitag, 12. März 2027 um 20:30', exact: true }).click();
    const area = page.getByRole('region', { name: 'Stehplatz', exact: true });
    await area.getByRole('spinbutton', { name: 'Erwachsene', exact: true }).waitFor();
    await screenshot(page, 'box-office-17-german-catalog');
    await expectAccessible(page, 'German catalog');
  });
});

describe('box office holds that run out (5-second holds)', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ holdSeconds: 5 });
  });
  afterAll(() => ui.close());

  /** The seconds a hold countdown shows (m:ss). */
  function countdownSeconds(text: string): number {
    const match = /^(\d+):(\d{2})$/.exec(text.trim());
    if (!match) throw new Error(`countdown reads "${text}"`);
    return Number(match[1]) * 60 + Number(match[2]);
  }

  /** Records every text the countdown shows, so a 0:00 that lasts one frame is not missed. */
  async function recordCountdown(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { countdownSeen: string[] }).countdownSeen = seen;
      const note = () => {
        for (const timer of document.querySelectorAll('[role="timer"]')) if (seen.at(-1) !== timer.textContent) seen.push(timer.textContent ?? '');
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    return () => page.evaluate(() => (window as unknown as { countdownSeen: string[] }).countdownSeen);
  }

  it('closes an open 3-D Secure challenge when its hold runs out; the next cart starts clean', async () => {
    const page = await ui.open('boxOffice');
    // The page runs on Playwright's clock (from the reload on; it keeps time with the real one until told otherwise).
    await page.clock.install();
    await page.reload();
    await chooseDate(page, CONCERT_13);
    await holdStanding(page, { Student: 1 });
    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    await page.getByRole('combobox', { name: 'Test card' }).selectOption('tok_3ds');
    await page.getByRole('button', { name: 'Charge card €29.00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm the payment with the card issuer' });
    await dialog.waitFor();
    await alertWith(page, 'The hold ran out and the tickets were released. Please start again.').waitFor({ timeout: 9000 });
    await dialog.waitFor({ state: 'detached' });

    const next = await holdStanding(page, { Adult: 1 });
    expect(next.total).toEqual({ amount: 3900, currency: 'EUR' });
    // Two of the new hold's five seconds pass on the page's clock — every timer of the page due by then has run,
    // as the countdown shows — and nothing of the old challenge has come back.
    const countdown = page.getByRole('timer');
    const left = countdownSeconds(await countdown.innerText());
    expect(left).toBeGreaterThanOrEqual(3); // the new hold itself must outlast the two seconds
    await page.clock.runFor(2_000);
    await expect.poll(async () => countdownSeconds(await countdown.innerText({ timeout: 1_000 })), { timeout: 5_000 }).toBeLessThanOrEqual(left - 2);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.locator('[data-code="PAYMENT_DECLINED"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pay by card', exact: true }).getAttribute('aria-pressed')).toBe('false');
  });

  it('releases standing places and seats when the hold runs out', async () => {
    const [standingPage, seatPage] = await Promise.all([ui.open('boxOffice'), ui.open('boxOffice')]);
    await Promise.all([chooseDate(standingPage, CONCERT_12), chooseDate(seatPage, TEMPEST_2)]);
    const standing = standingPage.getByRole('region', { name: 'Standing', exact: true });
    await standing.getByText('40 available').waitFor();
    const countdowns = await Promise.all([recordCountdown(standingPage), recordCountdown(seatPage)]);

    const stalls = seatPage.getByRole('group', { name: 'Stalls', exact: true });
    const [standingCart, seatCart] = await Promise.all([
      holdStanding(standingPage, { Adult: 2 }),
      answer<{ data: CartView }>(seatPage, 'POST', /\/api\/v3\/carts$/, () => stalls.getByRole('button', { name: 'Row A, Seat 1, free', exact: true }).click()).then((created) => created.body.data),
    ]);
    await standing.getByText('38 available').waitFor();
    await stalls.getByRole('button', { name: 'Row A, Seat 1, in your cart', exact: true }).waitFor();
    expect(standingCart.total).toEqual({ amount: 7800, currency: 'EUR' });
    expect(seatCart.total).toEqual({ amount: 4500, currency: 'EUR' });

    const ranOut = 'The hold ran out and the tickets were released. Please start again.';
    await Promise.all([alertWith(standingPage, ranOut).waitFor({ timeout: 9000 }), alertWith(seatPage, ranOut).waitFor({ timeout: 9000 })]);
    for (const seen of countdowns) {
      const texts = await seen();
      expect(texts.at(-1), `countdown texts: ${texts.join(' ')}`).toBe('0:00');
    }
    await screenshot(standingPage, 'box-office-11-hold-expired');
    await expectAccessible(standingPage, 'hold expired');

    // Available again, in the UI and in the engine.
    await standing.getByText('40 available').waitFor();
    await stalls.getByRole('button', { name: 'Row A, Seat 1, free', exact: true }).waitFor();
    expect(await standingPage.getByRole('timer').count()).toBe(0);
    expect(await standingPage.getByText('Nothing held yet.').isVisible()).toBe(true);
    const concert = await ui.engine.request<{ data: InventoryView }>('GET', '/occurrences/brass-2027-03-12/inventory');
    expect(concert.body.data.areas.find((area) => area.id === 'standing')?.inventoryItems[0]?.available).toBe(40);
    const tempest = await ui.engine.request<{ data: InventoryView }>('GET', '/occurrences/tempest-2027-04-02/inventory');
    expect(tempest.body.data.areas.find((area) => area.id === 'stalls')?.inventoryItems.find((seat) => seat.id === 'A1')?.available).toBe(1);
    const gone = await ui.engine.request<ErrorView>('GET', `/carts/${standingCart.id}`);
    expect(gone.status).toBe(410);
  });
});
