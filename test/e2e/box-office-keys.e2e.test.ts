import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * The box office as staff use it at 1366×768 (issue #22): the keyboard from a fresh page to the next sale,
 * everything inside its column, messages that belong to what is on screen now, and a printing failure said
 * plainly. The real engine (no printer set up) and the built UI in Chromium.
 */

const CONCERT_12 = 'Friday, 12 March 2027 at 20:30';
const TEMPEST_2 = 'Friday, 2 April 2027 at 20:00';

const isFocused = (locator: Locator): Promise<boolean> => locator.evaluate((element) => element === document.activeElement);
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');

async function confirmedOrderId(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { name: /^Order confirmed/ });
  await heading.waitFor();
  return /\bord_[A-Za-z0-9_-]+/.exec((await heading.textContent()) ?? '')?.[0] ?? '';
}

/** The box's horizontal extent lies within the container's (a pixel of rounding allowed). */
async function expectInside(inner: Locator, outer: Locator, what: string): Promise<void> {
  const [box, column] = await Promise.all([inner.boundingBox(), outer.boundingBox()]);
  expect(box && column, what).toBeTruthy();
  if (!box || !column) return;
  expect(box.x, `${what}: left edge ${box.x} inside ${column.x}`).toBeGreaterThanOrEqual(column.x - 1);
  expect(box.x + box.width, `${what}: right edge ${box.x + box.width} inside ${column.x + column.width}`).toBeLessThanOrEqual(column.x + column.width + 1);
}

describe('box office at 1366×768: keys, columns, messages (#22)', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('sells from a fresh page with the keyboard alone — Enter on the first date, then the four keys — and F6 starts the next sale', async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: CONCERT_12, exact: true }).waitFor();
    let keys = 0;
    const press = async (key: string) => {
      await page.keyboard.press(key);
      keys += 1;
    };
    // A fresh page has the cursor on the first date on sale.
    await expect.poll(() => focusedLabel(page)).toBe(CONCERT_12);
    await press('Enter');
    const adult = page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true });
    await expect.poll(() => isFocused(adult)).toBe(true);
    const afterDate = keys;
    await press('2');
    await press('Enter');
    await page.getByRole('timer').waitFor();
    await press('F2');
    await expect.poll(() => isFocused(page.getByRole('textbox', { name: 'Amount tendered (EUR)' }))).toBe(true);
    await press('Enter');
    const first = await confirmedOrderId(page);
    expect(keys - afterDate, 'the README’s four keys once the date is chosen').toBe(4);
    expect(keys, 'keys from a fresh page to "Order confirmed"').toBe(5);
    expect((await ui.engine.request<{ data: { total: unknown } }>('GET', `/orders/${first}`)).body.data.total).toEqual({ amount: 7800, currency: 'EUR' });
    await page.getByText('Keys: F6 new sale · F9 print · F8 orders').waitFor();

    // The next sale: F6, and the cursor is in the first quantity of the same date.
    keys = 0;
    await press('F6');
    await expect.poll(() => isFocused(adult)).toBe(true);
    await press('1');
    await press('Enter');
    await page.getByRole('timer').waitFor();
    await press('F2');
    await press('Enter');
    const second = await confirmedOrderId(page);
    expect(second).not.toBe(first);
    expect(keys, 'keys for the next sale').toBe(5);
    await page.keyboard.press('F6');
    await page.getByText(/^Keys: .*F6 new sale/).waitFor();
  });

  it('F8 puts the cursor in the order search field, each time it is pressed', async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: CONCERT_12, exact: true }).waitFor();
    await page.keyboard.press('F8');
    const search = page.getByRole('searchbox', { name: 'Order id or ticket code' });
    await expect.poll(() => isFocused(search)).toBe(true);
    await page.getByRole('button', { name: 'Back to sale' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await page.keyboard.press('F8');
    await expect.poll(() => isFocused(search)).toBe(true);
    await search.fill('no-such-order');
    await page.keyboard.press('F8'); // pressed again: still there, cursor still in the field
    await expect.poll(() => isFocused(search)).toBe(true);
  });

  it('a seated date puts the cursor on its seat map; the hint speaks of clicks and keys, not taps', async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: TEMPEST_2, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toBe('Row A, Seat 1, free');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const stalls = page.getByRole('group', { name: 'Stalls', exact: true });
    await stalls.getByRole('button', { name: 'Row A, Seat 2, in your cart', exact: true }).waitFor();
    await page.getByText('Click a free seat (or move to it with the arrow keys and press Enter) to add it; select it again to give it back.').first().waitFor();
    expect(await page.getByText(/\bTap\b/).count()).toBe(0);
  });

  it('keeps the seat map inside the tickets column', async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: TEMPEST_2, exact: true }).click();
    const stalls = page.getByRole('group', { name: 'Stalls', exact: true });
    await stalls.getByRole('button', { name: 'Row A, Seat 20, free', exact: true }).waitFor();
    const picker = page.locator('.picker-column');
    // Every row's last seat is whole and inside the tickets column; the map does not scroll sideways.
    for (const row of ['A', 'H', 'N']) await expectInside(stalls.getByRole('button', { name: new RegExp(`^Row ${row}, Seat 20,`) }), picker, `Row ${row}, Seat 20`);
    const overflow = await stalls.evaluate((rows) => rows.scrollWidth - rows.clientWidth);
    expect(overflow, 'the seat rows are wider than the map by').toBeLessThanOrEqual(0);
    await expectInside(stalls, picker, 'the seat map');
    await screenshot(page, 'box-office-18-seat-map-fits');
  });

  it('keeps the test-card list and Charge card inside the cart column', async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: TEMPEST_2, exact: true }).click();
    const stalls = page.getByRole('group', { name: 'Stalls', exact: true });
    await stalls.getByRole('button', { name: 'Row B, Seat 20, free', exact: true }).click();
    await page.getByRole('timer').waitFor();
    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    const cartColumn = page.locator('.cart-column');
    await expectInside(page.getByRole('combobox', { name: 'Test card' }), cartColumn, 'Test card');
    await expectInside(page.getByRole('button', { name: 'Charge card €45.00' }), cartColumn, 'Charge card');
    await screenshot(page, 'box-office-19-card-step-fits');
    await expectAccessible(page, 'card step inside the cart column');
  });

  it('clears an old voucher error when the card is declined, and the decline when the cart changes', async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: CONCERT_12, exact: true }).click();
    const standing = page.getByRole('region', { name: 'Standing', exact: true });
    await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
    await page.getByRole('button', { name: 'Hold tickets', exact: true }).click();
    await page.getByRole('timer').waitFor();
    await page.getByRole('textbox', { name: 'Voucher code' }).fill('NOPE');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    const voucherError = page.locator('[data-code="INVALID_VOUCHER"]');
    await voucherError.waitFor();
    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    await page.getByRole('combobox', { name: 'Test card' }).selectOption('tok_declined');
    await page.getByRole('button', { name: 'Charge card €39.00' }).click();
    const declined = page.locator('[data-code="PAYMENT_DECLINED"]');
    await declined.waitFor();
    expect(await voucherError.count(), 'the voucher error beside the decline').toBe(0);
    await screenshot(page, 'box-office-20-decline-alone');

    // The next step on the cart (a voucher that works) makes the decline old news.
    await page.getByRole('textbox', { name: 'Voucher code' }).fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByRole('button', { name: 'Remove voucher WELCOME10' }).waitFor();
    expect(await declined.count()).toBe(0);
  });

  it('keeps the search field in step with the order shown', async () => {
    const page = await ui.open('boxOffice');
    // Two sales: the first is looked up by a ticket code, the second is then picked from today's list.
    const orders: { id: string; code: string }[] = [];
    for (const adults of [1, 2]) {
      await page.getByRole('button', { name: CONCERT_12, exact: true }).click();
      const adult = page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true });
      await adult.fill(String(adults));
      await adult.press('Enter');
      await page.getByRole('timer').waitFor();
      await page.keyboard.press('F2');
      await page.keyboard.press('Enter');
      const id = await confirmedOrderId(page);
      const order = await ui.engine.request<{ data: { tickets: { code: string }[] } }>('GET', `/orders/${id}`);
      orders.push({ id, code: order.body.data.tickets[0]?.code ?? '' });
      await page.getByRole('button', { name: 'New sale', exact: true }).click();
    }
    const [first, second] = orders;
    if (!first || !second) throw new Error('two orders');
    await page.getByRole('button', { name: 'Orders', exact: true }).click();
    const search = page.getByRole('searchbox', { name: 'Order id or ticket code' });
    await search.fill(first.code);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Order ${first.id}` }).waitFor();
    await page.getByRole('table').getByRole('button', { name: second.id }).click();
    await page.getByRole('heading', { name: `Order ${second.id}` }).waitFor();
    expect(await search.inputValue(), 'the field beside the order shown').toBe(second.id);

    // Leaving and coming back starts an empty search, with no order of the earlier visit.
    await page.getByRole('button', { name: 'Back to sale' }).click();
    await page.getByRole('button', { name: 'Orders', exact: true }).click();
    await page.getByRole('heading', { name: "Today's sales" }).waitFor();
    expect(await search.inputValue()).toBe('');
    expect(await page.getByRole('heading', { name: /^Order ord_/ }).count()).toBe(0);
  });

  it('says so when no printer is set up — on F9 after a sale and on a reprint — and points to the PDF', async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: CONCERT_12, exact: true }).click();
    await page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true }).focus();
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await page.getByRole('timer').waitFor();
    await page.keyboard.press('F2');
    await page.keyboard.press('Enter');
    const orderId = await confirmedOrderId(page);
    const noPrinter = page.getByRole('alert').filter({ hasText: /^No printer is set up, so nothing was printed\. Download the tickets PDF below/ });
    await page.keyboard.press('F9');
    await noPrinter.waitFor();
    await page.getByRole('button', { name: 'Tickets PDF (A4)' }).waitFor();
    await screenshot(page, 'box-office-21-no-printer');
    await expectAccessible(page, 'no printer set up');

    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    await page.getByRole('button', { name: 'Orders', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Order id or ticket code' }).fill(orderId);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    expect(await noPrinter.count(), 'nothing said before it is asked').toBe(0);
    await page.getByRole('button', { name: 'Reprint tickets and receipt (F9)' }).click();
    await noPrinter.waitFor();
  });
});
