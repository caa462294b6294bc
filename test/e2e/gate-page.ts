import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { UiHarness } from './browser';

/** The gate screen as door staff hold it — a phone in portrait, English, the venue's time zone — on one show. */
export async function openGateOn(ui: UiHarness, occurrenceId: string): Promise<{ context: BrowserContext; page: Page; field: Locator; show: Locator }> {
  const context = await ui.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
  const page = await context.newPage();
  await page.goto(`${ui.engine.url}/?mode=gate`);
  const field = page.getByRole('textbox', { name: 'Ticket code' });
  await field.waitFor();
  const show = page.getByRole('combobox', { name: 'Show' });
  await show.selectOption(occurrenceId);
  return { context, page, field, show };
}

/** A keyboard-wedge scanner: the characters as fast as it sends them, then Enter, into whatever has the focus. */
export async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}
