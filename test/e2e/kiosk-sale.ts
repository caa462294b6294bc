import type { Page } from 'playwright-core';

/** The demo concert's first date, as the kiosk's date step names it. */
export const CONCERT_DATE = 'Friday, 12 March 2027 at 20:30';

/**
 * The kiosk's sale of two standing adults by card, as a customer taps it: start, the concert, two adults,
 * Continue, Pay by card with the simulator's Approved card. Answers once the sale is on its way (the
 * confirmation comes next); the caller waits for what it checks.
 */
export async function kioskCardSale(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Touch to start' }).click();
  await page.getByRole('button', { name: CONCERT_DATE, exact: true }).click();
  const standing = page.getByRole('region', { name: 'Standing', exact: true });
  await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
  await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('heading', { name: 'Review and pay' }).waitFor();
  await page.getByRole('combobox', { name: 'Test card' }).selectOption({ label: 'Approved' });
  await page.getByRole('button', { name: 'Pay by card' }).click();
}
