import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, concertOrder } from '../helpers/checkins';
import { startUi, type UiHarness } from './browser';
import { openGateOn, scan } from './gate-page';

/**
 * The gate screen (`?mode=gate`, contract §15) while a scan is being checked: the previous person's verdict must not
 * stay on the screen (a green "Admitted" read at a glance for the next person). A check through a slow hub can take
 * up to the hub's 1.5 s; here the answer is held back in the browser for that long.
 */

describe('the gate screen while a scan is checked', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  const textOf = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  it('shows that it is checking, not the previous verdict, until the answer comes', async () => {
    const first = codeOf(await concertOrder(ui.engine, 1, 'brass-2027-03-12'));
    const second = codeOf(await concertOrder(ui.engine, 1, 'brass-2027-03-12'));
    const { context, page, field } = await openGateOn(ui, 'brass-2027-03-12');
    await field.focus();
    await scan(page, first);
    await page.getByRole('status').filter({ hasText: /^\s*Admitted/ }).waitFor();

    // the next check's answer comes late
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v3/checkins', async (route) => {
      await released;
      await route.continue();
    });
    await scan(page, second);
    const region = page.locator('.gate-verdict-area');
    await expect.poll(() => textOf(region)).toMatch(/^Checking/);
    expect(await page.getByRole('status').filter({ hasText: /^\s*Admitted/ }).count()).toBe(0);
    release();
    await page.getByRole('status').filter({ hasText: /^\s*Admitted/ }).waitFor();
    await context.close();
  });
});
