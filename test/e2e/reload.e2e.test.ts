import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '../../engine/contract/cart';
import { startUi, type UiHarness } from './browser';

/** A reloaded page (the desktop app reloads a crashed renderer) keeps the held cart: same cart, same hold. */
describe('reloading the UI', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('restores the held cart from the engine instead of losing the hold', { timeout: 60_000 }, async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: 'Friday, 2 April 2027 at 20:00' }).click();
    const created = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/v3/carts');
    await page.getByRole('button', { name: 'Row D, Seat 4, free' }).click();
    const cart = ((await (await created).json()) as { data: Cart }).data;
    await page.getByRole('timer').waitFor();

    await page.reload();
    await page.getByRole('timer').waitFor();
    expect(await page.getByLabel('Total').textContent()).toBe('€45.00');
    expect(await page.getByRole('button', { name: 'Row D, Seat 4, in your cart' }).getAttribute('aria-pressed')).toBe('true');
    const held = await ui.engine.request<{ data: Cart }>('GET', `/carts/${cart.id}`);
    expect([held.status, held.body.data.expiresAt]).toEqual([200, cart.expiresAt]);

    // Paying after the reload pays for that same cart.
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await page.getByRole('button', { name: /^Charge card/ }).click();
    await page.getByRole('heading', { name: /Order confirmed/ }).waitFor();
    const after = await ui.engine.request<{ error: { code: string } }>('GET', `/carts/${cart.id}`);
    expect([after.status, after.body.error.code]).toEqual([409, 'CART_ALREADY_ORDERED']);
  });
});
