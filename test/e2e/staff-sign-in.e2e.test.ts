import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STAFF_PIN } from '../helpers/engine';
import { expectAccessible, screenshot, signInStaff, startUi, type UiHarness } from './browser';

/**
 * Keys by role (issue #22): the page starts with the kiosk's key, which sells by card only; the box office's
 * key comes only after the staff sign-in (Staff PIN, Sign in), and a Sign out control ends it.
 */

const CONCERT_13 = 'Saturday, 13 March 2027 at 20:30';

const isFocused = (page: Page, label: string) => page.getByLabel(label, { exact: true }).evaluate((element) => element === document.activeElement);
const staffKeyOf = (page: Page) => page.evaluate(() => sessionStorage.getItem('kassa.staffKey'));

describe('the box office asks for the staff PIN', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('sign-in first: a wrong PIN is said in an alert, the right one opens the box office; Sign out ends the key', { timeout: 60_000 }, async () => {
    const page = await ui.open('boxOffice', '', { signIn: false });
    await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    // nothing of the box office before the sign-in
    expect(await page.getByRole('button', { name: CONCERT_13, exact: true }).count()).toBe(0);
    expect(await isFocused(page, 'Staff PIN')).toBe(true);
    await page.keyboard.type('000000');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Wrong PIN' }).waitFor();
    expect(await isFocused(page, 'Staff PIN')).toBe(true);
    await screenshot(page, 'staff-sign-in-wrong-pin');
    await expectAccessible(page, 'staff sign-in with a wrong PIN');

    await page.keyboard.type(TEST_STAFF_PIN);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: CONCERT_13, exact: true }).waitFor();
    const staffKey = await staffKeyOf(page);
    expect(staffKey).toMatch(/^kassa_/);
    // the box office's key: every order, cash
    expect((await ui.engine.request('GET', '/orders', { key: staffKey })).status).toBe(200);

    // a reload (or a crashed renderer) does not ask again
    await page.reload();
    await page.getByRole('button', { name: CONCERT_13, exact: true }).waitFor();
    expect(await page.getByLabel('Staff PIN', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Staff PIN', { exact: true }).waitFor();
    expect(await staffKeyOf(page)).toBeNull();
    await expect.poll(async () => (await ui.engine.request('GET', '/orders', { key: staffKey })).status).toBe(401);
  });

  it('is accessible, in German and French too', { timeout: 60_000 }, async () => {
    const page = await ui.open('boxOffice', '', { signIn: false });
    await page.getByLabel('Staff PIN', { exact: true }).waitFor();
    await screenshot(page, 'staff-sign-in');
    await expectAccessible(page, 'staff sign-in');
    await page.getByRole('combobox', { name: /^Language/ }).selectOption('de');
    await page.getByLabel('Mitarbeiter-PIN', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Anmelden', exact: true }).waitFor();
    await page.getByRole('combobox', { name: /^Sprache/ }).selectOption('fr');
    await page.getByLabel('Code PIN du personnel', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor();
  });

  it('a staff key that ended (401) brings the sign-in back; after it the sale on screen goes on', { timeout: 60_000 }, async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: CONCERT_13, exact: true }).click();
    const standing = page.getByRole('region', { name: 'Standing', exact: true });
    await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
    await page.getByRole('button', { name: 'Hold tickets', exact: true }).click();
    await page.getByRole('timer').waitFor();
    const totalBefore = await page.getByLabel('Total', { exact: true }).textContent();

    // the session ends elsewhere (12 hours passed, or revoked): the next call answers 401
    const staffKey = await staffKeyOf(page);
    expect((await ui.engine.request('DELETE', '/staff-sessions/current', { key: staffKey })).status).toBe(204);
    await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    await page.getByRole('combobox', { name: 'Test card' }).waitFor();
    await page.getByRole('button', { name: /^Charge card/ }).click();
    await page.getByRole('alert').filter({ hasText: 'Your session has ended' }).waitFor();

    await signInStaff(page);
    await page.getByRole('timer').waitFor();
    expect(await page.getByLabel('Total', { exact: true }).textContent()).toBe(totalBefore);
    // the card step may still be open (its charge was refused with the 401), or the cart shows Pay by card again
    const charge = page.getByRole('button', { name: /^Charge card/ });
    if ((await charge.count()) === 0) await page.getByRole('button', { name: 'Pay by card', exact: true }).click();
    await charge.click();
    await page.getByRole('heading', { name: /^Order confirmed/ }).waitFor();
  });
});

describe('guessing the staff PIN', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('locks the sign-in after 5 wrong PINs, and says so (the right PIN too is refused meanwhile)', { timeout: 60_000 }, async () => {
    const page = await ui.open('boxOffice', '', { signIn: false });
    await page.getByLabel('Staff PIN', { exact: true }).waitFor();
    for (let i = 1; i <= 5; i += 1) {
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v3/staff-sessions');
      await page.keyboard.type(`00000${i}`);
      await page.keyboard.press('Enter');
      expect((await answered).status()).toBe(i < 5 ? 401 : 429);
      await page.getByRole('alert').filter({ hasText: i < 5 ? 'Wrong PIN' : 'Sign-in is locked for 5 min' }).waitFor();
    }
    await page.keyboard.type(TEST_STAFF_PIN);
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'locked' }).waitFor();
    expect(await page.getByLabel('Staff PIN', { exact: true }).count()).toBe(1);
    await expectAccessible(page, 'staff sign-in locked');
  });
});

describe('the kiosk page', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('never asks for a sign-in, offers no cash, and its key cannot take cash, cancel or list orders', { timeout: 60_000 }, async () => {
    const page = await ui.open('kiosk', 'mode=kiosk&idle=300');
    await page.getByText('Online', { exact: true }).waitFor();
    expect(await page.getByLabel('Staff PIN', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pay cash' }).count()).toBe(0);
    // the key any process of this machine gets, as the page does
    const config = await page.evaluate(async () => (await (await fetch('./ui-config.json')).json()) as { apiKey: string; staffSignIn: boolean });
    expect(config.staffSignIn).toBe(true);
    const cart = await ui.engine.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', {
      key: config.apiKey,
      body: { items: [{ occurrenceId: 'brass-2027-03-13', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }] },
    });
    expect(cart.status).toBe(201);
    const cash = await ui.engine.request<{ error: { code: string; details?: { requiredScope?: string } } }>('POST', '/orders', {
      key: config.apiKey,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } },
    });
    expect([cash.status, cash.body.error.code, cash.body.error.details?.requiredScope]).toEqual([403, 'INSUFFICIENT_PERMISSIONS', 'orders:write']);
    expect((await ui.engine.request('GET', '/orders', { key: config.apiKey })).status).toBe(403);
  });
});
