import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

describe('the UI served by the engine', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('opens in box-office mode with the demo catalog, online, and accessible', async () => {
    const page = await ui.open('boxOffice');
    await expect.poll(() => page.getByText('Online', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Friday, 12 March 2027 at 20:30' }).click();
    await page.getByRole('heading', { name: 'Standing' }).waitFor();
    await screenshot(page, 'box-office-start');
    await expectAccessible(page, 'box office start');
  });
});
