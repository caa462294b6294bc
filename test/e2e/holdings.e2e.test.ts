import { afterAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/** The box office of a till of a hub (contract §10): what this till holds, what the venue has left, giving places back. */

describe('places on this till', () => {
  const open: (UiHarness | TestEngine)[] = [];
  afterAll(async () => {
    for (const item of open.reverse()) await item.close();
  });

  it('shows per date what the till holds and the venue has left; staff give the places back', { timeout: 90_000 }, async () => {
    const hub = await startTestEngine();
    open.push(hub);
    const key = await hub.createKey(['catalog:read', 'carts:write', 'orders:write', 'orders:import']);
    const ui = await startUi({ upstream: { url: hub.url, key, retryBaseMs: 50, pollMs: 50, pullIntervalMs: 3_600_000 } });
    open.push(ui);
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: 'Friday, 12 March 2027 at 20:30' }).click();
    const panel = page.getByRole('region', { name: 'Places on this till' });
    await panel.getByText(/this till holds 10 · the venue has \d+ left/).first().waitFor({ timeout: 30_000 });
    await expectAccessible(page, 'box office with holdings');
    await screenshot(page, 'box-office-holdings');

    await panel.getByRole('button', { name: 'Give places back' }).click();
    await panel.getByText(/this till holds 0 · the venue has \d+ left/).first().waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await panel.getByRole('button', { name: 'Give places back' }).isDisabled())).toBe(true);
  });
});
