import type { Locator, Page } from 'playwright-core';
import { VIEWPORTS } from './browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '../../engine/contract/cart';
import type { InventoryView } from '../../engine/contract/catalog';
import type { Order } from '../../engine/contract/order';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * Self-service kiosk, driven as a customer would at 1080×1920 portrait: the attract screen, always three
 * steps (date, tickets, pay), card payment only (with 3-D Secure), a seat change on the theatre map, large
 * touch targets, the language buttons, the on-screen keypad, and nothing of one customer reaching the next.
 * What the screen shows is cross-checked with the same engine's API.
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

/** Holds the chosen quantities with Continue (which moves on to the pay step); answers the new cart's id. */
async function hold(page: Page): Promise<string> {
  const cartId = nextCartId(page);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  const id = await cartId;
  await visible(page.getByRole('timer', { name: 'Hold time left' }));
  return id;
}

/** Types a voucher code on the on-screen keypad. */
async function tapCode(page: Page, code: string): Promise<void> {
  const keypad = page.getByRole('group', { name: 'Keypad' });
  for (const key of code) await keypad.getByRole('button', { name: key, exact: true }).click();
}

const total = (page: Page) => page.getByRole('status', { name: 'Total' });
const steps = (page: Page) => page.getByRole('navigation', { name: 'Steps' }).getByRole('listitem');
const currentStep = (page: Page) => page.getByRole('navigation', { name: 'Steps' }).locator('[aria-current="step"]');

describe('kiosk mode (self-service) in the browser', () => {
  let ui: UiHarness;
  let printer: FakePrinter;
  beforeAll(async () => {
    // A kiosk prints every sale (contract §12): here on a fake ESC/POS printer that prints. Without one the
    // confirmation says the tickets were not printed and stays longer (kiosk-printing.e2e).
    printer = await startFakePrinter();
    ui = await startUi({ printers: [printer.url] });
  });
  afterAll(async () => {
    await ui.close();
    await printer.close();
  });

  it('shows the attract screen with large language buttons (no idle question there, no Mode), accessible', async () => {
    const page = await openKiosk(ui, 'mode=kiosk&idle=1');
    // The page runs on Playwright's clock (from the reload on): idle time passes when the test says, not by waiting.
    await page.clock.install();
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Tickets for tonight and beyond' }));
    await page.clock.runFor(2_000); // idle twice over: nobody is asked anything before a sale starts
    expect(await page.getByRole('dialog').count()).toBe(0);
    // A customer has no way into box-office mode (cash, refunds): no Mode switch on a kiosk.
    expect(await page.getByRole('combobox', { name: 'Mode' }).count()).toBe(0);
    const languages = page.getByRole('group', { name: 'Language' });
    for (const name of ['English', 'Deutsch', 'Français']) {
      const box = await languages.getByRole('button', { name }).boundingBox();
      expect(box && box.width >= 200 && box.height >= 64, `${name}: ${JSON.stringify(box)}`).toBe(true);
    }
    // The start button sits in the lower half of the portrait screen.
    const start = await page.getByRole('button', { name: 'Touch to start' }).boundingBox();
    expect(start && start.y > VIEWPORTS.kiosk.height / 2).toBe(true);
    await screenshot(page, 'kiosk-attract');
    await expectAccessible(page, 'kiosk attract screen');
    // …whereas the same two idle seconds once a sale has started do ask (so the clock above did run).
    await page.getByRole('button', { name: 'Touch to start' }).click();
    await visible(page.getByRole('button', { name: CONCERT_DATE }));
    await page.clock.runFor(2_000);
    await visible(page.getByRole('dialog'));
  });

  it('switches to French with its button; the next customer (Start over, or a reload) starts in English again', async () => {
    const page = await openKiosk(ui);
    await page.getByRole('button', { name: 'Français' }).click();
    await visible(page.getByRole('button', { name: 'Touchez pour commencer' }));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await screenshot(page, 'kiosk-attract-fr');
    await expectAccessible(page, 'kiosk attract screen (French)');

    // The catalog's names come in French too (the engine answers in the Accept-Language).
    await page.getByRole('button', { name: 'Touchez pour commencer' }).click();
    await visible(page.getByRole('heading', { name: 'Midnight Brass — en concert' }));
    await page.getByRole('button', { name: 'vendredi 12 mars 2027 à 20:30' }).click();
    const debout = await visible(page.getByRole('region', { name: 'Debout' }));
    await debout.getByRole('button', { name: 'Un de plus : Adulte' }).click();
    await page.getByRole('button', { name: 'Continuer', exact: true }).click();
    await visible(page.getByRole('timer'));
    await page.getByRole('button', { name: 'Recommencer' }).click();
    // Start over asks first; the customer confirms.
    const ask = await visible(page.getByRole('dialog', { name: 'Recommencer ?' }));
    await ask.getByRole('button', { name: 'Oui, recommencer' }).click();
    await visible(page.getByRole('button', { name: 'Touch to start' }));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    await page.getByRole('button', { name: 'Deutsch' }).click();
    await visible(page.getByRole('button', { name: 'Zum Starten berühren' }));
    await page.reload();
    await visible(page.getByRole('button', { name: 'Touch to start' }));
  });

  it('sells 2 tickets by card in 6 taps from the start screen, shows the show on every ticket, and goes back to the start after 20 s', { timeout: 60_000 }, async () => {
    const page = await openKiosk(ui);
    const before = await available(ui, CONCERT, 'standing');
    let taps = 0;
    const tap = async (locator: Locator) => {
      await locator.click();
      taps += 1;
    };

    await tap(page.getByRole('button', { name: 'Touch to start' }));
    expect(await steps(page).count()).toBe(3);
    expect(await currentStep(page).innerText()).toMatch(/Date$/);
    await screenshot(page, 'kiosk-date');
    await expectAccessible(page, 'kiosk date step');
    await tap(page.getByRole('button', { name: CONCERT_DATE }));
    const standing = await visible(page.getByRole('region', { name: 'Standing' }));
    expect(await steps(page).count()).toBe(3);
    expect(await currentStep(page).innerText()).toMatch(/Tickets$/);
    await tap(standing.getByRole('button', { name: 'One more Adult' }));
    await tap(standing.getByRole('button', { name: 'One more Adult' }));
    await screenshot(page, 'kiosk-tickets');
    await expectAccessible(page, 'kiosk tickets step');
    const cartId = nextCartId(page);
    await tap(page.getByRole('button', { name: 'Continue', exact: true }));
    await cartId;
    await visible(page.getByRole('heading', { name: 'Review and pay' }));
    expect(await steps(page).count()).toBe(3); // the same three steps, whatever the event offers
    expect(await currentStep(page).innerText()).toMatch(/Pay$/);
    await expect.poll(() => total(page).innerText()).toBe('€78.00');
    // The total is the largest text on the screen, in the lower half with the countdown.
    const sizes = await page.evaluate(() => {
      const totalEl = document.querySelector('.kiosk-summary .total');
      const body = document.querySelector('.kiosk-pay p, .kiosk-pay th');
      return [totalEl ? parseFloat(getComputedStyle(totalEl).fontSize) : 0, body ? parseFloat(getComputedStyle(body).fontSize) : 0];
    });
    expect(sizes[0]).toBeGreaterThan((sizes[1] ?? 0) * 1.5);
    const totalBox = await total(page).boundingBox();
    expect(totalBox && totalBox.y > VIEWPORTS.kiosk.height / 2).toBe(true);
    // The card step speaks to the customer: tap or insert; test cards by outcome only, never a token.
    await visible(page.getByText('Press the button, then tap or insert your card on the reader.'));
    const options = await page.getByRole('combobox', { name: 'Test card' }).locator('option').allInnerTexts();
    expect(options).toEqual(['Approved', '3-D Secure', 'Declined', 'Risk check fails', 'Provider unavailable']);
    expect(await page.locator('body').innerText()).not.toMatch(/tok_|cash|engine/i);
    await screenshot(page, 'kiosk-review-pay');
    await expectAccessible(page, 'kiosk review and pay step');
    await tap(page.getByRole('button', { name: 'Pay by card' }));

    const heading = await visible(page.getByRole('heading', { name: /^Order confirmed/ }));
    const confirmedAt = Date.now();
    expect(taps).toBeLessThanOrEqual(6);
    const orderId = (await heading.locator('.order-id').innerText()).trim();
    const order = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body.data).toMatchObject({ status: 'confirmed', total: { amount: 7800, currency: 'EUR' }, payment: { method: 'card', status: 'captured' } });
    expect(order.body.data.event?.location).toMatchObject({ name: 'Stadthalle am Fluss', timeZone: 'Europe/Berlin' });
    expect(await available(ui, CONCERT, 'standing')).toBe(before - 2);
    // Each ticket: its QR code with the event, date and time (venue's clock), venue and area.
    const tickets = page.locator('.ticket');
    expect(await tickets.count()).toBe(2);
    for (const [index, ticket] of order.body.data.tickets.entries()) {
      await visible(page.getByRole('img', { name: `Ticket ${ticket.code}`, exact: true }));
      const text = await tickets.nth(index).innerText();
      for (const part of [ticket.code, 'Midnight Brass — Live in Concert', CONCERT_DATE, 'Stadthalle am Fluss', 'Standing']) expect(text).toContain(part);
    }
    const back = page.getByRole('timer', { name: 'Back to the start' });
    expect(await back.innerText()).toMatch(/^Back to the start in (19|20) s\.$/);
    // The kiosk printed the sale on its own and says so (kiosk-printing.e2e: what it says when it could not).
    await page.getByRole('status').filter({ hasText: 'Tickets printed. Please take them from the printer.' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'kiosk-confirmation');
    await expectAccessible(page, 'kiosk confirmation');

    // Nobody touches anything: the codes leave the screen by themselves at the shipped 20 s.
    await visible(page.getByRole('button', { name: 'Touch to start' }), 25_000);
    const waited = (Date.now() - confirmedAt) / 1000;
    expect(waited).toBeGreaterThanOrEqual(18);
    expect(await page.getByRole('img', { name: /^Ticket / }).count()).toBe(0);
  });

  it('adds parking and a keypad-typed WELCOME10 in USD; the next customer starts in EUR again', async () => {
    const page = await openKiosk(ui);
    const standing = await concertTickets(page);
    await standing.getByRole('button', { name: 'One more Adult' }).click();
    await standing.getByRole('button', { name: 'One more Adult' }).click();
    const cartId = await hold(page);
    await page.getByRole('button', { name: 'Add Parking' }).click();
    await visible(page.getByRole('button', { name: 'Remove Parking' }));
    await expect.poll(() => total(page).innerText()).toBe('€86.00');

    await page.getByRole('button', { name: 'I have a voucher' }).click();
    const field = page.getByRole('textbox', { name: 'Voucher code' });
    expect(await field.getAttribute('inputmode')).toBe('none'); // no system keyboard pops up (typing still works: kiosk-review.e2e)
    await tapCode(page, 'WELCOMX');
    await page.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: 'Delete' }).click();
    await tapCode(page, '10');
    expect(await field.inputValue()).toBe('WELCOM10');
    await page.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: 'Clear' }).click();
    await tapCode(page, 'WELCOME10');
    await screenshot(page, 'kiosk-voucher-keypad');
    await expectAccessible(page, 'kiosk voucher keypad');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await visible(page.getByRole('button', { name: 'Remove voucher WELCOME10' }));
    await expect.poll(() => total(page).innerText()).toBe('€78.20'); // 7800 + 800 − 780
    await page.getByRole('combobox', { name: 'Currency' }).selectOption('USD');
    // USD, each unit price converted once: 2 × 4222 + 866 − round(844.4) = 8466
    await expect.poll(() => total(page).innerText()).toBe('US$84.66');
    const cart = await ui.engine.request<{ data: Cart }>('GET', `/carts/${cartId}`);
    expect(cart.body.data.total).toEqual({ amount: 8466, currency: 'USD' });

    await page.getByRole('button', { name: 'Pay by card' }).click();
    const heading = await visible(page.getByRole('heading', { name: /^Order confirmed/ }));
    const orderId = (await heading.locator('.order-id').innerText()).trim();
    const order = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
    expect(order.body.data).toMatchObject({ cartId, currency: 'USD', total: { amount: 8466, currency: 'USD' } });

    // The customer taps Done; the next one's cart is priced in the venue's base currency.
    await page.getByRole('button', { name: 'Done' }).click();
    const next = await concertTickets(page);
    await next.getByRole('button', { name: 'One more Student' }).click();
    const nextCart = await hold(page);
    expect((await ui.engine.request<{ data: Cart }>('GET', `/carts/${nextCart}`)).body.data.currency).toBe('EUR');
    expect(await page.getByRole('combobox', { name: 'Currency' }).inputValue()).toBe('EUR');
  });

  it('completes a 3-D Secure card payment in the challenge dialog', async () => {
    const page = await openKiosk(ui);
    const standing = await concertTickets(page);
    await standing.getByRole('button', { name: 'One more Student' }).click();
    const cartId = await hold(page);
    await page.getByRole('combobox', { name: 'Test card' }).selectOption({ label: '3-D Secure' });
    await page.getByRole('button', { name: 'Pay by card' }).click();

    await visible(page.getByRole('dialog', { name: 'Confirm the payment with the card issuer' }));
    const approve = await visible(page.frameLocator('dialog iframe').getByRole('button', { name: 'Approve' }));
    await screenshot(page, 'kiosk-3ds');
    await expectAccessible(page, 'kiosk 3-D Secure dialog');
    await approve.click();

    const heading = await visible(page.getByRole('heading', { name: /^Order confirmed/ }));
    expect(await page.getByRole('dialog').count()).toBe(0);
    const orderId = (await heading.locator('.order-id').innerText()).trim();
    const order = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
    expect(order.body.data).toMatchObject({ cartId, status: 'confirmed', total: { amount: 2900, currency: 'EUR' }, payment: { method: 'card', authenticated: true } });
  });

  it('words a decline for the customer: another card, never cash or the engine', async () => {
    const page = await openKiosk(ui);
    const standing = await concertTickets(page);
    await standing.getByRole('button', { name: 'One more Student' }).click();
    await hold(page);
    await page.getByRole('combobox', { name: 'Test card' }).selectOption({ label: 'Declined' });
    await page.getByRole('button', { name: 'Pay by card' }).click();
    const alert = await visible(page.getByRole('alert').filter({ hasText: 'Please try another card.' }));
    expect(await alert.innerText()).not.toMatch(/cash|engine/i);
    await screenshot(page, 'kiosk-declined');
    await expectAccessible(page, 'kiosk decline');
  });

  it('Start over asks first: "No" keeps the held tickets, "Yes" gives them back', async () => {
    const page = await openKiosk(ui);
    const standing = await concertTickets(page);
    await standing.getByRole('button', { name: 'One more Adult' }).click();
    const cartId = await hold(page);
    await page.getByRole('button', { name: 'Start over' }).click();
    const ask = await visible(page.getByRole('dialog', { name: 'Start over?' }));
    await screenshot(page, 'kiosk-start-over');
    await expectAccessible(page, 'kiosk start-over question');
    await ask.getByRole('button', { name: 'No, continue' }).click();
    await visible(page.getByRole('heading', { name: 'Review and pay' }));
    expect((await ui.engine.request('GET', `/carts/${cartId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Start over' }).click();
    await page.getByRole('dialog', { name: 'Start over?' }).getByRole('button', { name: 'Yes, start over' }).click();
    await visible(page.getByRole('button', { name: 'Touch to start' }));
    await expect.poll(async () => (await ui.engine.request('GET', `/carts/${cartId}`)).status).toBe(410);
  });

  it('has touch targets of at least 44×44 CSS px on the tickets and pay steps, keypad included', async () => {
    const page = await openKiosk(ui);
    const standing = await concertTickets(page);
    await standing.getByRole('button', { name: 'One more Adult' }).click();
    expect(await smallButtons(page), 'tickets step').toEqual([]);
    await hold(page);
    await page.getByRole('button', { name: 'I have a voucher' }).click();
    await tapCode(page, 'WELCOME10');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await visible(page.getByRole('button', { name: 'Remove voucher WELCOME10' }));
    expect(await smallButtons(page), 'pay step').toEqual([]);
  });

  it('changes a seat on the Tempest seat map: the engine frees the first seat; held and sold seats look different', async () => {
    // Another customer's seats: B1 held in their cart, B2 sold.
    const held = await ui.engine.request<{ data: Cart }>('POST', '/carts', { body: { items: [{ occurrenceId: TEMPEST, inventoryItemId: 'B1', priceOptionId: 'stalls-full', quantity: 1 }] } });
    expect(held.status).toBe(201);
    const sold = await ui.engine.request<{ data: Cart }>('POST', '/carts', { body: { items: [{ occurrenceId: TEMPEST, inventoryItemId: 'B2', priceOptionId: 'stalls-full', quantity: 1 }] } });
    const paid = await ui.engine.request('POST', '/orders', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { cartId: sold.body.data.id, expectedTotal: sold.body.data.total, payment: { method: 'cash' } },
    });
    expect(paid.status).toBe(201);

    const page = await openKiosk(ui);
    expect(await available(ui, TEMPEST, 'A1')).toBe(1);
    await page.getByRole('button', { name: 'Touch to start' }).click();
    await page.getByRole('button', { name: TEMPEST_DATE }).click();
    const stalls = await visible(page.getByRole('region', { name: 'Stalls' }));
    await visible(stalls.getByRole('button', { name: 'Row B, Seat 1, held' }));
    await visible(stalls.getByRole('button', { name: 'Row B, Seat 2, sold' }));
    expect(await stalls.getByRole('list', { name: 'Seat colours' }).innerText()).toMatch(/free[\s\S]*in your cart[\s\S]*held[\s\S]*sold/);

    let cartId = nextCartId(page);
    await stalls.getByRole('button', { name: 'Row A, Seat 1, free' }).click();
    const first = await cartId;
    await visible(stalls.getByRole('button', { name: 'Row A, Seat 1, in your cart' }));
    await screenshot(page, 'kiosk-seatmap');
    await expectAccessible(page, 'kiosk seat map');

    cartId = nextCartId(page);
    await stalls.getByRole('button', { name: 'Row A, Seat 2, free' }).click();
    const second = await cartId;
    await visible(stalls.getByRole('button', { name: 'Row A, Seat 2, in your cart' }));
    cartId = nextCartId(page);
    await stalls.getByRole('button', { name: 'Row A, Seat 1, in your cart' }).click();
    const third = await cartId;
    await visible(stalls.getByRole('button', { name: 'Row A, Seat 1, free' }));

    expect(await available(ui, TEMPEST, 'A1')).toBe(1);
    expect(await available(ui, TEMPEST, 'A2')).toBe(0);
    expect((await ui.engine.request('GET', `/carts/${first}`)).status).toBe(410);
    expect((await ui.engine.request('GET', `/carts/${second}`)).status).toBe(410);
    const live = await ui.engine.request<{ data: Cart }>('GET', `/carts/${third}`);
    expect(live.body.data.items.map((item) => item.inventoryItemId)).toEqual(['A2']);
    // The seat-only area moves on with Continue, to the pay step.
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await visible(page.getByRole('heading', { name: 'Review and pay' }));
    expect((await ui.engine.request('DELETE', `/carts/${held.body.data.id}`)).status).toBe(204);
  });
});
