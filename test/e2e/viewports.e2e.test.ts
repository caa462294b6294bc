import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '../../engine/contract/cart';
import type { Order } from '../../engine/contract/order';
import { expectAccessible, screenshot, startUi, VIEWPORTS, type UiHarness } from './browser';

/**
 * Each mode's key flows at the other mode's screen size (issue #14: "at 1366×768 and 1080×1920"): the kiosk on
 * a 1366×768 landscape screen — the 6-tap card sale and an engine restart on the pay step — and the box office
 * on a 1080×1920 portrait screen — the 4-key cash sale, the pay bar in view with a long cart, today's sales and
 * a restart mid-sale. axe on every screen. The kiosk.e2e and box-office.e2e files cover each mode at its own size.
 */

const CONCERT_12 = 'Friday, 12 March 2027 at 20:30';
const CONCERT_13 = 'Saturday, 13 March 2027 at 20:30';
const TEMPEST_9 = 'Friday, 9 April 2027 at 20:00';
const KIOSK = 'mode=kiosk&idle=300';

async function visible(locator: Locator, timeout = 10_000): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

/** The engine's answer to METHOD on a path matching PATH, caused by `action`. */
async function answer<T>(page: Page, method: string, path: RegExp, action: () => Promise<void>): Promise<{ status: number; body: T }> {
  const [response] = await Promise.all([
    page.waitForResponse((candidate: Response) => candidate.request().method() === method && path.test(new URL(candidate.url()).pathname)),
    action(),
  ]);
  return { status: response.status(), body: (await response.json()) as T };
}

/** The element lies wholly inside the viewport as the page stands (nothing to scroll to). */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  return box !== null && size !== null && box.y >= 0 && box.x >= 0 && box.y + box.height <= size.height && box.x + box.width <= size.width;
}

async function orderIdShown(page: Page): Promise<string> {
  const heading = await visible(page.getByRole('heading', { name: /^Order confirmed/ }));
  const id = /\bord_[A-Za-z0-9_-]+/.exec((await heading.textContent()) ?? '')?.[0];
  expect(id, 'an order id beside "Order confirmed"').toBeDefined();
  return id ?? '';
}

/** Stops the engine, waits for the header to say so, starts it again on the same folder and port. */
async function restart(ui: UiHarness, page: Page): Promise<void> {
  await ui.engine.stop();
  await visible(page.getByText('Reconnecting…', { exact: true }), 15_000);
  await ui.engine.start();
  await visible(page.getByText('Online', { exact: true }), 15_000);
}

describe('each mode at the other screen size', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  describe(`kiosk at ${VIEWPORTS.boxOffice.width}×${VIEWPORTS.boxOffice.height} (landscape)`, () => {
    it('sells 2 tickets by card in 6 taps, with the total and Pay by card in view; accessible on every step', { timeout: 60_000 }, async () => {
      const page = await ui.open('boxOffice', KIOSK);
      let taps = 0;
      const tap = async (locator: Locator) => {
        await locator.click();
        taps += 1;
      };
      const start = await visible(page.getByRole('button', { name: 'Touch to start' }));
      expect(await inView(page, start)).toBe(true);
      await screenshot(page, 'kiosk-landscape-attract');
      await expectAccessible(page, 'kiosk attract screen at 1366×768');
      await tap(start);
      await expectAccessible(page, 'kiosk date step at 1366×768');
      await tap(page.getByRole('button', { name: CONCERT_12 }));
      const standing = await visible(page.getByRole('region', { name: 'Standing' }));
      await tap(standing.getByRole('button', { name: 'One more Adult' }));
      await tap(standing.getByRole('button', { name: 'One more Adult' }));
      await expectAccessible(page, 'kiosk tickets step at 1366×768');
      const created = await answer<{ data: Cart }>(page, 'POST', /^\/api\/v3\/carts$/, () => tap(page.getByRole('button', { name: 'Continue', exact: true })));
      expect(created.status).toBe(201);
      await visible(page.getByRole('heading', { name: 'Review and pay' }));
      const total = page.getByRole('status', { name: 'Total' });
      await expect.poll(() => total.innerText()).toBe('€78.00');
      // The sticky bar keeps the total and the countdown on screen while the pay step scrolls.
      expect(await inView(page, total)).toBe(true);
      expect(await inView(page, page.getByRole('timer', { name: 'Hold time left' }))).toBe(true);
      await screenshot(page, 'kiosk-landscape-pay');
      await expectAccessible(page, 'kiosk pay step at 1366×768');
      await tap(page.getByRole('button', { name: 'Pay by card' }));
      const orderId = await orderIdShown(page);
      expect(taps).toBeLessThanOrEqual(6);
      await expectAccessible(page, 'kiosk confirmation at 1366×768');
      const order = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
      expect(order.body.data).toMatchObject({ cartId: created.body.data.id, total: { amount: 7800, currency: 'EUR' }, payment: { method: 'card', status: 'captured' } });
      expect(order.body.data.tickets).toHaveLength(2);
    });

    it('recovers from an engine restart on the pay step without a reload; Pay by card goes through', { timeout: 90_000 }, async () => {
      const page = await ui.open('boxOffice', KIOSK);
      await page.getByRole('button', { name: 'Touch to start' }).click();
      await page.getByRole('button', { name: CONCERT_13 }).click();
      await page.getByRole('region', { name: 'Standing' }).getByRole('button', { name: 'One more Student' }).click();
      const created = await answer<{ data: Cart }>(page, 'POST', /^\/api\/v3\/carts$/, () => page.getByRole('button', { name: 'Continue', exact: true }).click());
      await visible(page.getByRole('heading', { name: 'Review and pay' }));
      await restart(ui, page);
      await expectAccessible(page, 'kiosk after a restart at 1366×768');
      await page.getByRole('button', { name: 'Pay by card' }).click();
      const orderId = await orderIdShown(page);
      const order = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`);
      expect(order.body.data).toMatchObject({ cartId: created.body.data.id, status: 'confirmed', total: { amount: 2900, currency: 'EUR' } });
      // No error left over from the restart (this engine has no printer: the kiosk says so, kiosk-printing.e2e).
      expect(await page.getByRole('alert').filter({ hasNotText: 'Your tickets could not be printed.' }).count()).toBe(0);
    });
  });

  describe(`box office at ${VIEWPORTS.kiosk.width}×${VIEWPORTS.kiosk.height} (portrait)`, () => {
    it('sells 2 standing tickets for cash in 4 keys after the date; accessible', { timeout: 60_000 }, async () => {
      const page = await ui.open('kiosk');
      await visible(page.getByText('Online', { exact: true }));
      await expectAccessible(page, 'box office start at 1080×1920');
      await page.getByRole('button', { name: CONCERT_13, exact: true }).click();
      const adult = page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true });
      await expect.poll(() => adult.evaluate((element) => element === document.activeElement)).toBe(true);
      let keys = 0;
      const press = async (key: string) => {
        await page.keyboard.press(key);
        keys += 1;
      };
      await press('2');
      const created = await answer<{ data: Cart }>(page, 'POST', /^\/api\/v3\/carts$/, () => press('Enter'));
      expect(created.body.data.total).toEqual({ amount: 7800, currency: 'EUR' });
      await visible(page.getByRole('timer'));
      await press('F2');
      const placed = await answer<{ data: Order }>(page, 'POST', /^\/api\/v3\/orders$/, () => press('Enter'));
      expect(placed.status).toBe(201);
      expect(keys).toBeLessThanOrEqual(4);
      expect(placed.body.data).toMatchObject({ cartId: created.body.data.id, total: { amount: 7800, currency: 'EUR' }, payment: { method: 'cash', status: 'captured' } });
      await orderIdShown(page);
      await expectAccessible(page, 'box office confirmation at 1080×1920');
    });

    it('keeps the pay bar in view with a long cart and shows the change while the amount is typed', { timeout: 60_000 }, async () => {
      const page = await ui.open('kiosk');
      await page.getByRole('button', { name: CONCERT_12, exact: true }).click();
      const standing = page.getByRole('region', { name: 'Standing', exact: true });
      await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
      await standing.getByRole('button', { name: 'One more Student', exact: true }).click();
      await answer(page, 'POST', /^\/api\/v3\/carts$/, () => page.getByRole('button', { name: 'Hold tickets', exact: true }).click());
      for (const extra of ['Parking', 'Programme booklet', 'Drink voucher', 'Tour T-shirt']) {
        await answer(page, 'POST', /\/items$/, () => page.getByRole('button', { name: `Add ${extra}`, exact: true }).click());
      }
      // 3900 + 2900 + 800 + 500 + 450 + 2500 = 11050
      await expect.poll(() => page.getByLabel('Total', { exact: true }).textContent()).toBe('€110.50');
      for (const name of ['Pay cash', 'Pay by card']) expect(await inView(page, page.getByRole('button', { name, exact: true })), name).toBe(true);
      await page.keyboard.press('F2');
      await page.getByRole('textbox', { name: 'Amount tendered (EUR)' }).pressSequentially('120');
      await visible(page.getByRole('status').filter({ hasText: 'Change due: €9.50' }));
      expect(await inView(page, page.getByRole('button', { name: 'Take payment', exact: true }))).toBe(true);
      await screenshot(page, 'box-office-portrait-cash');
      await expectAccessible(page, 'box office long cart at 1080×1920');
      const placed = await answer<{ data: Order }>(page, 'POST', /^\/api\/v3\/orders$/, () => page.keyboard.press('Enter'));
      expect(placed.body.data.payment).toMatchObject({ tendered: { amount: 12000, currency: 'EUR' }, change: { amount: 950, currency: 'EUR' } });
    });

    it("lists today's sales with event, time and payment; a restart mid-sale, then the cash sale completes", { timeout: 90_000 }, async () => {
      const page = await ui.open('kiosk');
      await page.getByRole('button', { name: TEMPEST_9, exact: true }).click();
      const created = await answer<{ data: Cart }>(page, 'POST', /^\/api\/v3\/carts$/, () =>
        page.getByRole('group', { name: 'Stalls', exact: true }).getByRole('button', { name: 'Row G, Seat 4, free', exact: true }).click(),
      );
      await visible(page.getByRole('timer'));
      await restart(ui, page);
      await page.keyboard.press('F2');
      const placed = await answer<{ data: Order }>(page, 'POST', /^\/api\/v3\/orders$/, () => page.keyboard.press('Enter'));
      expect(placed.status).toBe(201);
      expect(placed.body.data.cartId).toBe(created.body.data.id);
      const orderId = await orderIdShown(page);
      await page.getByRole('button', { name: 'New sale', exact: true }).click();
      await page.keyboard.press('F8');
      const list = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Payment' }) });
      const row = await visible(list.getByRole('row').filter({ has: page.getByRole('button', { name: orderId }) }));
      const text = await row.innerText();
      for (const part of ['The Tempest, Friday, 9 April 2027 at 20:00', 'Cash', '€45.00']) expect(text).toContain(part);
      await screenshot(page, 'box-office-portrait-todays-sales');
      await expectAccessible(page, "today's sales at 1080×1920");
    });
  });
});
