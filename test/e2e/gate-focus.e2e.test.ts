import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, concertOrder } from '../helpers/checkins';
import { readRows } from '../helpers/db-rows';
import { startUi, type UiHarness } from './browser';
import { openGateOn, scan } from './gate-page';

/**
 * The gate screen (`?mode=gate`, issue #26) when staff left the focus in another control: a keyboard-wedge scan (the
 * code at the scanner's speed, then Enter) still reaches `Ticket code`. Left on `Show` (its list opened and closed),
 * the scan used to jump the show by type-ahead and be lost; left in `Gate name`, it used to become the gate's name.
 * A person typing a gate name (a key every ~100 ms) still names the gate.
 */

describe('the gate screen, a scan where the focus was left elsewhere', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  const admitted = (page: Page) => page.getByRole('status').filter({ hasText: /^\s*Admitted/ });
  const gatesOf = async (code: string) => (await readRows<{ gate: string }>(ui.engine, 'SELECT gate FROM checkins WHERE ticket_code = ?', [code])).map((row) => row.gate);

  it('checks the scan, keeps the show and the gate name as staff set them', async () => {
    const first = codeOf(await concertOrder(ui.engine, 1, 'brass-2027-03-12'));
    const second = codeOf(await concertOrder(ui.engine, 1, 'brass-2027-03-12'));
    const { context, page, field, show } = await openGateOn(ui, 'brass-2027-03-12');

    // a person names the gate, a key at a time, and does not press Enter; then a scan comes
    const name = page.getByRole('textbox', { name: 'Gate name' });
    await name.click();
    await page.keyboard.type('Door 2', { delay: 120 });
    await scan(page, first);
    await admitted(page).waitFor();
    expect(await name.inputValue()).toBe('Door 2');
    expect(await gatesOf(first)).toEqual(['Door 2']);
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe('');

    // the focus left on the show (its list opened and closed without a change); then a scan comes
    await show.focus();
    await scan(page, second);
    await expect.poll(() => gatesOf(second)).toEqual(['Door 2']);
    await admitted(page).waitFor();
    expect(await show.inputValue()).toBe('brass-2027-03-12');
    await context.close();
  });
});
