import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '../../engine/contract/cart';
import type { InventoryView } from '../../engine/contract/catalog';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * The kiosk's walk-away guard: after `idle` seconds without a touch it asks "Are you still there?"; left
 * unanswered for the grace period (max(10 s, idle/3)) it starts over and gives the held tickets back.
 * Kept in its own file (own engine) so its waiting runs beside the other kiosk tests.
 */

const IDLE_SECONDS = 4;
const GRACE_SECONDS = Math.max(10, Math.round(IDLE_SECONDS / 3));
const CONCERT_DATE = 'Friday, 12 March 2027 at 20:30';
const CONCERT = 'brass-2027-03-12';
const STILL_THERE = 'Are you still there?';

async function standingAvailable(ui: UiHarness): Promise<number> {
  const response = await ui.engine.request<{ data: InventoryView }>('GET', `/occurrences/${CONCERT}/inventory`);
  expect(response.status).toBe(200);
  const item = response.body.data.areas.flatMap((area) => area.inventoryItems).find((candidate) => candidate.id === 'standing');
  if (!item) throw new Error('no standing area');
  return item.available;
}

async function visible(locator: Locator, timeout = 10_000): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

/** Attract → concert date → `adults` standing Adult tickets held; answers the cart id the engine gave. */
async function holdAdults(page: Page, adults: number): Promise<string> {
  await page.getByRole('button', { name: 'Touch to start' }).click();
  await page.getByRole('button', { name: CONCERT_DATE }).click();
  const standing = await visible(page.getByRole('region', { name: 'Standing' }));
  for (let i = 0; i < adults; i += 1) await standing.getByRole('button', { name: 'One more Adult' }).click();
  const created = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/v3/carts');
  await page.getByRole('button', { name: 'Continue' }).click(); // holds, then the pay step
  const response = await created;
  expect(response.status()).toBe(201);
  const cart = (await response.json()) as { data: Cart };
  await visible(page.getByRole('timer', { name: 'Hold time left' }));
  return cart.data.id;
}

describe('kiosk idle reset in the browser', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('asks "Are you still there?", then starts over and releases the hold when nobody answers', { timeout: 45_000 }, async () => {
    const page = await ui.open('kiosk', `mode=kiosk&idle=${IDLE_SECONDS}`);
    await visible(page.getByRole('button', { name: 'Touch to start' }));
    const before = await standingAvailable(ui);
    expect(before).toBe(40);
    const cartId = await holdAdults(page, 2);
    expect(await standingAvailable(ui)).toBe(before - 2);

    // No touches from here on.
    const dialog = await visible(page.getByRole('dialog', { name: STILL_THERE }), (IDLE_SECONDS + 3) * 1000);
    const askedAt = Date.now();
    await visible(dialog.getByRole('button', { name: 'Yes, I am still here' }));
    expect(await dialog.getByRole('timer').innerText()).toMatch(/^Starting over in \d+ seconds\.$/);
    await screenshot(page, 'kiosk-still-there');
    await expectAccessible(page, 'kiosk "Are you still there?" dialog');

    await visible(page.getByRole('button', { name: 'Touch to start' }), (GRACE_SECONDS + 5) * 1000);
    const waited = (Date.now() - askedAt) / 1000;
    expect(waited).toBeGreaterThanOrEqual(GRACE_SECONDS - 2);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => standingAvailable(ui), { timeout: 5_000 }).toBe(before);
    expect((await ui.engine.request('GET', `/carts/${cartId}`)).status).toBe(410);
  });

  it('keeps the cart when the customer answers "Yes, I am still here"', { timeout: 45_000 }, async () => {
    const page = await ui.open('kiosk', `mode=kiosk&idle=${IDLE_SECONDS}`);
    await visible(page.getByRole('button', { name: 'Touch to start' }));
    const before = await standingAvailable(ui);
    const cartId = await holdAdults(page, 1);
    expect(await standingAvailable(ui)).toBe(before - 1);

    const dialog = await visible(page.getByRole('dialog', { name: STILL_THERE }), (IDLE_SECONDS + 3) * 1000);
    const askedAt = Date.now();
    await dialog.getByRole('button', { name: 'Yes, I am still here' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(page.getByRole('heading', { name: 'Review and pay' }));

    // Past the moment the unanswered question would have started over: still here, still held.
    const deadline = askedAt + (GRACE_SECONDS + 1) * 1000;
    await page.waitForTimeout(Math.max(0, deadline - Date.now()));
    expect(await page.getByRole('button', { name: 'Touch to start' }).count()).toBe(0);
    await visible(page.getByRole('heading', { name: 'Review and pay' }));
    expect((await ui.engine.request('GET', `/carts/${cartId}`)).status).toBe(200);
    expect(await standingAvailable(ui)).toBe(before - 1);
  });

  it('does not start over while the customer is busy inside the 3-D Secure challenge', { timeout: 60_000 }, async () => {
    const page = await ui.open('kiosk', `mode=kiosk&idle=${IDLE_SECONDS}`);
    await visible(page.getByRole('button', { name: 'Touch to start' }));
    await holdAdults(page, 1);
    await page.getByRole('combobox', { name: 'Test card' }).selectOption({ label: '3-D Secure' });
    await page.getByRole('button', { name: 'Pay by card' }).click();
    const challenge = await visible(page.getByRole('dialog', { name: 'Confirm the payment with the card issuer' }));

    // Taps inside the challenge frame never reach the kiosk window; idle + grace pass regardless.
    await page.waitForTimeout((IDLE_SECONDS + GRACE_SECONDS + 2) * 1000);
    expect(await page.getByRole('dialog', { name: STILL_THERE }).count()).toBe(0);
    expect(await challenge.isVisible()).toBe(true);
    await page.frameLocator('dialog iframe').getByRole('button', { name: 'Approve' }).click();
    await visible(page.getByRole('heading', { name: /Order confirmed/ }));
  });
});
