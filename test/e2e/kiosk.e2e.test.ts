import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '../../engine/contract/cart';
import type { InventoryView } from '../../engine/contract/catalog';
import type { Order } from '../../engine/contract/order';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * Self-service kiosk, driven as a customer would at 1080×1920 portrait: the attract screen, one step per
 * screen, card payment only (with 3-D Secure), a seat change on the theatre map, large touch targets and
 * the language switch. What the screen shows is cross-checked with the same engine's API.
 */

const CONCERT_DATE = 'Friday, 12 March 2027 at 20:30';
const CONCERT = 'brass-2027-03-12';
const TEMPEST_DATE = 'Friday, 2 April 2027 at 20:00';
const TEMPEST = 'tempest-2027-04-02';
/** long enough that "Are you still there?" never interrupts these tests (kiosk-idle covers it) */
const KIOSK = 'mode=kiosk&idle=300';
const MIN_TARGET = 44;

/** Availability of one inventory item (a standing area or a seat), as the engine reports it. */
async function available(ui: UiHarness, occurrenceId: string, itemId: string): Promise<number> {
  const response = await ui.engine.request<{ data: InventoryView }>('GET', `/occurrences/${occurrenceId}/inventory`);
  expect(response.status).toBe(200);
  const item = response.body.data.areas.flatMap((area) => area.inventoryItems).find((candidate) => candidate.id === itemId);
  if (!item) throw new Error(`no inventory item ${itemId} in ${occurrenceId}`);
  return item.available;
}

/** The id of the next cart the UI creates (the kiosk never shows it): read from the engine's 201 answer. */
async function nextCartId(page: Page): Promise<string> {
  const response = await page.waitForResponse((candidate) => candidate.request().method() === 'POST' && new URL(candidate.url()).pathname === '/api/v3/carts');
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { data: Cart };
  return body.data.id;
}

/** Every enabled, visible button smaller than 44×44 CSS px, described by its accessible name and size. */
async function smallButtons(page: Page): Promise<string[]> {
  const small: string[] = [];
  const buttons = page.getByRole('button');
  const count = await buttons.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    const button = buttons.nth(index);
    if (!(await button.isVisible()) || !(await button.isEnabled())) continue;
    const box = await button.boundingBox();
    if (!box) continue;
    if (box.width < MIN_TARGET || box.height < MIN_TARGET) {
      const name = (await button.getAttribute('aria-label')) ?? (await button.innerText()).trim();
      small.push(`"${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return small;
}

async function visible(locator: Locator, timeout = 10_000): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

/** The attract screen of a fresh kiosk page. */
async function openKiosk(ui: UiHarness, query = KIOSK): Promise<Page> {
  const page = await ui.open('kiosk', query);
  await visible(page.getByRole('button', { name: 'Touch to start' }));
  return page;
}

/** Attract → date → the tickets step of the concert, standing area. */
async function concertTickets(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Touch to start' }).click();
  await page.getByRole('button', { name: CONCERT_DATE }).click();
  return visible(page.getByRole('region', { name: 'Standing' }));
}

/** Holds the chosen quantities and answers the new cart's id. */
async function hold(page: Page): Promise<string> {
  const cartId = nextCartId(page);
  await page.getByRole('button', { name: 'Hold tickets' }).click();
  const id = await cartId;
  await visible(page.getByRole('timer', { name: 'Hold time left' }));
  return id;
}

const total = (page: Page) => page.getByRole('status', { name: 'Total' });
const nextButton = (page: Page) => page.getByRole('button', { name: 'Next', exact: true });

describe('kiosk mode (self-service) in the browser', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('shows the attract screen (no idle question there), accessible', async () => {
    const page = await openKiosk(ui, 'mode=kiosk&idle=1');
    await visible(page.getByRole('heading', { name: 'Tickets for tonight and beyond' }));
    await page.waitForTimeout(2_000); // idle twice over: nobody is asked anything before a sale starts
    expect(await page.getByRole('dialog').count()).toBe(0);
    // A customer has no way into box-office mode (cash, refunds): no Mode switch on a kiosk.
    expect(await page.getByRole('combobox', { name: 'Mode' }).count()).toBe(0);
    await screenshot(page, 'kiosk-attract');
    await expectAccessible(page, 'kiosk attract screen');
  });

  it('switches the attract screen to French', async () => {
    const page = await openKiosk(ui);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    await visible(page.getByRole('button', { name: 'Touchez pour commencer' }));
    expect(await page.getByRole('button', { name: 'Touch to start' }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await screenshot(page, 'kiosk-attract-fr');
    await expectAccessible(page, 'kiosk attract screen (French)');
  });

  it('sells two standing tickets and parking, one step per screen, with WELCOME10 in USD, paid by card', async () => {
    const page = await openKiosk(ui);
    expect(await available(ui, CONCERT, 'standing')).toBe(40);

    // Step 1: the date.
    await page.getByRole('button', { name: 'Touch to start' }).click();
    await visible(page.getByRole('heading', { name: 'Events' }));
    const date = await visible(page.getByRole('button', { name: CONCERT_DATE }));
    expect(await nextButton(page).isDisabled()).toBe(true);
    await screenshot(page, 'kiosk-date');
    await expectAccessible(page, 'kiosk date step');
    await date.click();

    // Step 2: tickets with the +/- buttons, then held.
    const standing = await visible(page.getByRole('region', { name: 'Standing' }));
    await standing.getByRole('button', { name: 'One more Adult' }).click();
    await standing.getByRole('button', { name: 'One more Adult' }).click();
    await standing.getByRole('button', { name: 'One more Student' }).click();
    await standing.getByRole('button', { name: 'One fewer Student' }).click();
    expect(await standing.getByRole('spinbutton', { name: 'Adult' }).inputValue()).toBe('2');
    expect(await standing.getByRole('spinbutton', { name: 'Student' }).inputValue()).toBe('0');
    expect(await nextButton(page).isDisabled()).toBe(true); // nothing held yet
    const cartId = await hold(page);
    await expect.poll(() => total(page).innerText()).toBe('€78.00');
    expect(await available(ui, CONCERT, 'standing')).toBe(38);
    await screenshot(page, 'kiosk-tickets');
    await expectAccessible(page, 'kiosk tickets step');
    await nextButton(page).click();

    // Step 3: extras.
    await page.getByRole('button', { name: 'Add Parking' }).click();
    await visible(page.getByRole('button', { name: 'Remove Parking' }));
    await expect.poll(() => total(page).innerText()).toBe('€86.00');
    await screenshot(page, 'kiosk-extras');
    await expectAccessible(page, 'kiosk extras step');
    await nextButton(page).click();

    // Step 4: review — voucher, currency — and pay by card; no cash at a kiosk.
    await visible(page.getByRole('heading', { name: 'Review and pay' }));
    expect(await nextButton(page).count()).toBe(0);
    await page.getByRole('textbox', { name: 'Voucher code' }).fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await visible(page.getByRole('button', { name: 'Remove voucher WELCOME10' }));
    await expect.poll(() => total(page).innerText()).toBe('€78.20'); // 7800 + 800 − 780
    await page.getByRole('combobox', { name: 'Currency' }).selectOption('USD');
    // USD, each unit price converted once: 2 × 4222 + 866 − round(844.4) = 8466
    await expect.poll(() => total(page).innerText()).toBe('US$84.66');
    const cart = await ui.engine.request<{ data: Cart }>('GET', `/carts/${cartId}`);
    expect(cart.status).toBe(200);
    expect(cart.body.data.total).toEqual({ amount: 8466, currency: 'USD' });
    expect(cart.body.data.vouchers).toEqual([{ code: 'WELCOME10' }]);

    expect(await page.getByRole('button', { name: 'Pay cash' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await page.getByRole('combobox', { name: 'Test card' }).selectOption('tok_visa');
    const charge = await visible(page.getByRole('button', { name: 'Charge card US$84.66' }));
    await screenshot(page, 'kiosk-review-pay');
    await expectAccessible(page, 'kiosk review and pay step');
    await charge.click();

    // Confirmation: the order id, one QR code per ticket; the engine agrees.
    const heading = await visible(page.getByRole('heading', { name: /^Order confirmed/ }));
    const orderId = (await heading.locator('.order-id').innerText()).trim();
    expect(orderId).not.toBe('');
    expect((await heading.innerText()).replace(/\s+/g, ' ').trim()).toBe(`Order confirmed ${orderId}`);
    const order = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body.data).toMatchObject({ cartId, status: 'confirmed', currency: 'USD', total: { amount: 8466, currency: 'USD' }, payment: { method: 'card', status: 'captured' } });
    expect(order.body.data.tickets).toHaveLength(2);
    expect(await page.getByRole('img', { name: /^Ticket / }).count()).toBe(2);
    for (const ticket of order.body.data.tickets) await visible(page.getByRole('img', { name: `Ticket ${ticket.code}`, exact: true }));
    expect(await total(page).innerText()).toBe('US$84.66');
    expect(await available(ui, CONCERT, 'standing')).toBe(38);
    await screenshot(page, 'kiosk-confirmation');
    await expectAccessible(page, 'kiosk confirmation');
  });

  it('completes a 3-D Secure card payment in the challenge dialog', async () => {
    const page = await openKiosk(ui);
    const standing = await concertTickets(page);
    await standing.getByRole('button', { name: 'One more Student' }).click();
    const cartId = await hold(page);
    await nextButton(page).click(); // extras: none
    await nextButton(page).click();
    await visible(page.getByRole('heading', { name: 'Review and pay' }));
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await page.getByRole('combobox', { name: 'Test card' }).selectOption('tok_3ds');
    await page.getByRole('button', { name: 'Charge card €29.00' }).click();

    await visible(page.getByRole('dialog', { name: 'Confirm the payment with the card issuer' }));
    const approve = await visible(page.frameLocator('dialog iframe').getByRole('button', { name: 'Approve' }));
    await screenshot(page, 'kiosk-3ds');
    await expectAccessible(page, 'kiosk 3-D Secure dialog');
    await approve.click();

    const heading = await visible(page.getByRole('heading', { name: /^Order confirmed/ }));
    expect(await page.getByRole('dialog').count()).toBe(0);
    const orderId = (await heading.locator('.order-id').innerText()).trim();
    const order = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body.data).toMatchObject({ cartId, status: 'confirmed', total: { amount: 2900, currency: 'EUR' }, payment: { method: 'card', authenticated: true } });
    expect(await page.getByRole('img', { name: /^Ticket / }).count()).toBe(1);
  });

  it('has touch targets of at least 44×44 CSS px on the tickets and pay steps', async () => {
    const page = await openKiosk(ui);
    const standing = await concertTickets(page);
    await standing.getByRole('button', { name: 'One more Adult' }).click();
    expect(await smallButtons(page), 'tickets step, before holding').toEqual([]);
    await hold(page);
    expect(await smallButtons(page), 'tickets step, held').toEqual([]);
    await nextButton(page).click();
    await nextButton(page).click();
    await visible(page.getByRole('heading', { name: 'Review and pay' }));
    await page.getByRole('textbox', { name: 'Voucher code' }).fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await visible(page.getByRole('button', { name: 'Remove voucher WELCOME10' }));
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await visible(page.getByRole('button', { name: /^Charge card/ }));
    expect(await smallButtons(page), 'pay step').toEqual([]);
  });

  it('changes a seat on the Tempest seat map: the engine frees the first seat (previousCartId)', async () => {
    const page = await openKiosk(ui);
    expect(await available(ui, TEMPEST, 'A1')).toBe(1);
    expect(await available(ui, TEMPEST, 'A2')).toBe(1);
    await page.getByRole('button', { name: 'Touch to start' }).click();
    await page.getByRole('button', { name: TEMPEST_DATE }).click();
    const stalls = await visible(page.getByRole('region', { name: 'Stalls' }));

    let cartId = nextCartId(page);
    await stalls.getByRole('button', { name: 'Row A, Seat 1, free' }).click();
    const first = await cartId;
    await visible(stalls.getByRole('button', { name: 'Row A, Seat 1, in your cart' }));
    expect(await available(ui, TEMPEST, 'A1')).toBe(0);
    await screenshot(page, 'kiosk-seatmap');
    await expectAccessible(page, 'kiosk seat map');

    // Another seat: A2 joins, then A1 is given back — each change is a new cart naming the previous one.
    cartId = nextCartId(page);
    await stalls.getByRole('button', { name: 'Row A, Seat 2, free' }).click();
    const second = await cartId;
    await visible(stalls.getByRole('button', { name: 'Row A, Seat 2, in your cart' }));
    cartId = nextCartId(page);
    await stalls.getByRole('button', { name: 'Row A, Seat 1, in your cart' }).click();
    const third = await cartId;
    await visible(stalls.getByRole('button', { name: 'Row A, Seat 1, free' }));
    await visible(stalls.getByRole('button', { name: 'Row A, Seat 2, in your cart' }));

    expect(await available(ui, TEMPEST, 'A1')).toBe(1);
    expect(await available(ui, TEMPEST, 'A2')).toBe(0);
    expect((await ui.engine.request('GET', `/carts/${first}`)).status).toBe(410);
    expect((await ui.engine.request('GET', `/carts/${second}`)).status).toBe(410);
    const live = await ui.engine.request<{ data: Cart }>('GET', `/carts/${third}`);
    expect(live.status).toBe(200);
    expect(live.body.data.items.map((item) => item.inventoryItemId)).toEqual(['A2']);
  });
});
