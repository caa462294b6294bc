import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '../../engine/contract/cart';
import type { InventoryView } from '../../engine/contract/catalog';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * The kiosk's walk-away guard: after `idle` seconds without a touch it asks "Are you still there?"; left
 * unanswered for the grace period (max(10 s, idle/3)) it starts over and gives the held tickets back.
 * Kept in its own file (own engine). The first test waits out the real clock; the others run the page on
 * Playwright's clock, so "nothing happened" is checked at a time the test set, not after a fixed wait.
 */

const IDLE_SECONDS = 4;
const GRACE_SECONDS = Math.max(10, Math.round(IDLE_SECONDS / 3));
const CONCERT_DATE = 'Friday, 12 March 2027 at 20:30';
const CONCERT = 'brass-2027-03-12';
const STILL_THERE = 'Are you still there?';
/** How often the kiosk's IdleGuard looks at the clock. */
const IDLE_TICK_MS = 250;

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

/**
 * A kiosk page whose timers and Date run on Playwright's clock: installed first, then the page loaded again,
 * so the idle guard's interval is one of the clock's from its first tick.
 */
async function openOnClock(ui: UiHarness): Promise<Page> {
  const page = await ui.open('kiosk', `mode=kiosk&idle=${IDLE_SECONDS}`);
  await page.clock.install();
  await page.reload();
  await visible(page.getByRole('button', { name: 'Touch to start' }));
  return page;
}

/** From here the page's clock stands still: idle time passes only by the test's runFor, however busy the machine. */
async function pauseClock(page: Page): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000); // a second ahead, so the clock never has to go back
}

/** The seconds the hold countdown shows (m:ss). */
async function holdSecondsLeft(page: Page): Promise<number> {
  const text = await page.getByRole('timer', { name: 'Hold time left' }).innerText({ timeout: 1_000 });
  const match = /^(\d+):(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`hold countdown reads "${text}"`);
  return Number(match[1]) * 60 + Number(match[2]);
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

  it('keeps the cart when the customer answers "Yes, I am still here"; left alone again, it starts over', { timeout: 45_000 }, async () => {
    const page = await openOnClock(ui);
    const before = await standingAvailable(ui);
    const cartId = await holdAdults(page, 1);
    expect(await standingAvailable(ui)).toBe(before - 1);
    await pauseClock(page);

    await page.clock.runFor(IDLE_SECONDS * 1000);
    const dialog = await visible(page.getByRole('dialog', { name: STILL_THERE }));
    await dialog.getByRole('button', { name: 'Yes, I am still here' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(page.getByRole('heading', { name: 'Review and pay' }));

    // Grace + 2 s after the answer: past the moment the unanswered question would have started over (asked + grace).
    // One guard tick (250 ms) more: the guard looks every 250 ms from whenever React re-armed it, so its last look
    // inside grace + 2 s can fall up to a tick short of it (and its rounded-up countdown read a second more);
    // inside grace + 2.25 s its last look is always past grace + 2 s.
    await page.clock.runFor((GRACE_SECONDS + 2) * 1000 + IDLE_TICK_MS);
    // Idle again since the answer, the question is back — and its countdown shows the clock got there: idle + grace
    // from the answer, less the grace + 2 s that passed.
    const again = await visible(page.getByRole('dialog', { name: STILL_THERE }));
    await expect.poll(() => again.getByRole('timer').innerText({ timeout: 1_000 }), { timeout: 5_000 }).toBe(`Starting over in ${IDLE_SECONDS - 2} seconds.`);
    expect(await page.getByRole('button', { name: 'Touch to start' }).count()).toBe(0);
    await visible(page.getByRole('heading', { name: 'Review and pay' }));
    expect((await ui.engine.request('GET', `/carts/${cartId}`)).status).toBe(200);
    expect(await standingAvailable(ui)).toBe(before - 1);

    // Control: this second question, unanswered, runs out on the same clock — the start screen, the hold given back.
    await page.clock.runFor(IDLE_SECONDS * 1000);
    await visible(page.getByRole('button', { name: 'Touch to start' }));
    await expect.poll(() => standingAvailable(ui), { timeout: 5_000 }).toBe(before);
    expect((await ui.engine.request('GET', `/carts/${cartId}`)).status).toBe(410);
  });

  it('does not start over while the customer is busy inside the 3-D Secure challenge', { timeout: 60_000 }, async () => {
    const page = await openOnClock(ui);
    await holdAdults(page, 1);
    await pauseClock(page);
    // Control: on this clock, idle seconds outside a payment do ask.
    await page.clock.runFor(IDLE_SECONDS * 1000);
    const asked = await visible(page.getByRole('dialog', { name: STILL_THERE }));
    await asked.getByRole('button', { name: 'Yes, I am still here' }).click();
    await asked.waitFor({ state: 'hidden' });

    await page.getByRole('combobox', { name: 'Test card' }).selectOption({ label: '3-D Secure' });
    await page.getByRole('button', { name: 'Pay by card' }).click();
    const challenge = await visible(page.getByRole('dialog', { name: 'Confirm the payment with the card issuer' }));

    // Taps inside the challenge frame never reach the kiosk window; idle + grace pass regardless.
    const holdLeft = await holdSecondsLeft(page);
    const waited = IDLE_SECONDS + GRACE_SECONDS + 2;
    await page.clock.runFor(waited * 1000);
    // The hold countdown proves the page lived through those seconds…
    await expect.poll(() => holdSecondsLeft(page), { timeout: 5_000 }).toBeLessThanOrEqual(holdLeft - waited);
    // …and nobody was asked, nothing started over.
    expect(await page.getByRole('dialog', { name: STILL_THERE }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Touch to start' }).count()).toBe(0);
    expect(await challenge.isVisible()).toBe(true);
    await page.frameLocator('dialog iframe').getByRole('button', { name: 'Approve' }).click();
    await visible(page.getByRole('heading', { name: /Order confirmed/ }));
  });
});
