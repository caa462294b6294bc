import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shift, ShiftReport } from '../../engine/contract/shift';
import { decodeEscPos } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * The cash drawer at the box office (issue #25, contract §9 "Shifts", §14), in Chromium against the real engine
 * started with `requireShift` and a fake ESC/POS receipt printer: open the drawer with a float, two cash sales
 * from the keyboard, a pay-out, the close with a count by denomination, the Z report on screen (Expected, Counted,
 * Difference) and on the printer, today's shifts for the manager; a cash sale with the drawer closed asks to open
 * it first. axe on every new screen.
 */

const CONCERT_12 = 'Friday, 12 March 2027 at 20:30';
/** euro notes and coins, largest first (minor units), as the count's spinbuttons name them */
const EUR = [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1];

const euros = (amount: number) => `${amount < 0 ? '-' : ''}€${(Math.abs(amount) / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
const isFocused = (locator: Locator): Promise<boolean> => locator.evaluate((element) => element === document.activeElement);
const text = (bytes: Buffer | undefined) =>
  decodeEscPos(bytes ?? Buffer.alloc(0))
    .flatMap((event) => (event.kind === 'text' ? [event.text] : []))
    .join('\n');

/** The header's drawer line. */
const drawerState = (page: Page) => page.getByRole('group', { name: 'Cash drawer', exact: true }).getByRole('status');

/** The standing area's Adult quantity, where Enter on a date puts the cursor. */
const adultSpin = (page: Page) => page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true });

/** A two-ticket (or `quantity`) cash sale on the first date from the keyboard: the date, the number, Enter, F2, Enter. */
async function cashSale(page: Page, quantity: number): Promise<string> {
  await page.getByRole('button', { name: CONCERT_12, exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => isFocused(adultSpin(page))).toBe(true);
  await page.keyboard.type(String(quantity));
  await page.keyboard.press('Enter');
  await page.getByRole('timer').waitFor();
  await page.keyboard.press('F2');
  await expect.poll(() => isFocused(page.getByRole('textbox', { name: 'Amount tendered (EUR)' }))).toBe(true);
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { name: /^Order confirmed/ });
  await heading.waitFor();
  const id = /\bord_[A-Za-z0-9_-]+/.exec((await heading.textContent()) ?? '')?.[0] ?? '';
  await page.keyboard.press('F6');
  await page.getByRole('heading', { name: 'Events' }).waitFor();
  return id;
}

describe('the cash drawer at the box office (#25)', () => {
  let ui: UiHarness;
  let printer: FakePrinter;
  beforeAll(async () => {
    printer = await startFakePrinter();
    ui = await startUi({ printers: [printer.url], requireShift: true });
  });
  afterAll(async () => {
    await ui.close();
    await printer.close();
  });

  const current = async () => (await ui.engine.request<{ data: Shift }>('GET', '/shifts/current')).body.data;
  const report = async (shiftId: string) => (await ui.engine.request<{ data: ShiftReport }>('GET', `/shifts/${shiftId}/report`)).body.data;

  it('open drawer → two cash sales → pay-out → close with a count by denomination → the Z report on screen and printed', async () => {
    const page = await ui.open('boxOffice');
    await expect.poll(() => drawerState(page).textContent()).toBe('Drawer closed');

    // Shift+F2: Open drawer, the cursor in the float; Enter opens the shift.
    await page.keyboard.press('Shift+F2');
    const open = page.getByRole('dialog', { name: 'Open drawer' });
    await open.waitFor();
    const float = open.getByRole('textbox', { name: 'Opening float', exact: true });
    await expect.poll(() => isFocused(float)).toBe(true);
    await expectAccessible(page, 'open drawer dialog');
    await screenshot(page, 'shifts-open-drawer');
    await page.keyboard.type('150');
    await open.getByRole('button', { name: 'Open shift', exact: true }).click();
    await open.waitFor({ state: 'detached' });
    const shift = await current();
    expect(shift).toMatchObject({ number: 1, status: 'open', openingFloat: { amount: 15000, currency: 'EUR' } });
    await expect.poll(() => drawerState(page).textContent()).toMatch(/^Drawer open since \d{2}:\d{2} · expected €150\.00$/);

    // Two cash sales from the keyboard; the header's expected cash is the engine's report, read again after each.
    const sales = [await cashSale(page, 2), await cashSale(page, 1)];
    expect(sales.every((id) => id.startsWith('ord_'))).toBe(true);
    const afterSales = (await report(shift.id)).cash.expected;
    await expect.poll(() => drawerState(page).textContent()).toContain(`expected ${euros(afterSales.amount)}`);

    // Shift+F4: a pay-out above what the drawer holds is refused in the dialog (role alert); a smaller one goes.
    await page.keyboard.press('Shift+F4');
    const payOut = page.getByRole('dialog', { name: 'Pay out' });
    await payOut.getByRole('textbox', { name: 'Amount', exact: true }).fill(((afterSales.amount + 100) / 100).toFixed(2));
    await payOut.getByRole('textbox', { name: 'Reason', exact: true }).fill('Bank deposit');
    await payOut.getByRole('button', { name: 'Pay out', exact: true }).click();
    const refused = payOut.getByRole('alert');
    await refused.waitFor();
    expect(await refused.getAttribute('data-code')).toBe('INSUFFICIENT_CASH');
    await expectAccessible(page, 'pay-out dialog with its error');
    await payOut.getByRole('textbox', { name: 'Amount', exact: true }).fill('20');
    await payOut.getByRole('button', { name: 'Pay out', exact: true }).click();
    await payOut.waitFor({ state: 'detached' });
    const expected = (await report(shift.id)).cash.expected;
    expect(expected.amount).toBe(afterSales.amount - 2000);
    await expect.poll(() => drawerState(page).textContent()).toContain(`expected ${euros(expected.amount)}`);

    // Shift+F9: Close shift. The drawer is counted note by note, 50 cents short; the count fills Counted cash.
    await page.keyboard.press('Shift+F9');
    const close = page.getByRole('dialog', { name: 'Close shift' });
    await close.waitFor();
    await expectAccessible(page, 'close shift dialog');
    const counted = expected.amount - 50;
    let left = counted;
    for (const value of EUR) {
      const count = Math.floor(left / value);
      left -= count * value;
      if (count === 0) continue;
      const kind = value >= 500 ? 'notes' : 'coins';
      await close.getByRole('spinbutton', { name: `Number of ${euros(value)} ${kind}`, exact: true }).fill(String(count));
    }
    const countedCash = close.getByRole('textbox', { name: 'Counted cash', exact: true });
    await expect.poll(() => countedCash.inputValue()).toBe((counted / 100).toFixed(2));
    await screenshot(page, 'shifts-close-count');
    const jobsBefore = printer.jobs.length;
    await close.getByRole('button', { name: 'Close shift', exact: true }).click();

    // The Z report: Expected, Counted, Difference (in large type), every figure the engine answered; printed.
    await page.getByRole('heading', { name: 'Z report', exact: true }).waitFor();
    await screenshot(page, 'shifts-z-report');
    const z = await report(shift.id);
    expect(z).toMatchObject({ kind: 'Z', shift: { status: 'closed', zNumber: 1, counted: { amount: counted }, difference: { amount: -50 } } });
    await expect.poll(() => page.getByLabel('Expected', { exact: true }).textContent()).toBe(euros(expected.amount));
    expect(await page.getByLabel('Counted', { exact: true }).textContent()).toBe(euros(counted));
    const difference = page.getByLabel('Difference', { exact: true });
    expect(await difference.textContent()).toBe('-€0.50');
    expect(Number.parseFloat(await difference.evaluate((element) => getComputedStyle(element).fontSize))).toBeGreaterThanOrEqual(32);
    expect(await page.getByLabel('Orders', { exact: true }).first().textContent()).toBe(`${z.orders.count} · ${euros(z.orders.total.amount)}`);
    expect(await page.getByLabel('Pay-outs', { exact: true }).textContent()).toBe('€20.00');
    expect(await page.getByLabel('Opening float', { exact: true }).textContent()).toBe('€150.00');
    await page.getByRole('status').filter({ hasText: 'Report printed' }).waitFor({ timeout: 15_000 });
    const [slip] = (await printer.waitForJobs(jobsBefore + 1)).slice(jobsBefore);
    const printed = text(slip);
    expect(printed).toContain('Z report');
    expect(decodeEscPos(slip ?? Buffer.alloc(0)).filter((event) => event.kind === 'cut')).toHaveLength(1);
    expect(decodeEscPos(slip ?? Buffer.alloc(0)).filter((event) => event.kind === 'pulse')).toEqual([]);
    await expect.poll(() => drawerState(page).textContent()).toBe('Drawer closed');
    await expectAccessible(page, 'Z report');

    // Print again (F9): a second slip.
    await page.keyboard.press('F9');
    const [again] = (await printer.waitForJobs(jobsBefore + 2)).slice(jobsBefore + 1);
    expect(text(again)).toContain('Z report');

    // The manager's view (Shift+F8): today's shifts with their figures, and the report of one.
    await page.keyboard.press('F6');
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await page.keyboard.press('Shift+F8');
    await page.getByRole('heading', { name: "Today's shifts" }).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Report of shift 1' }) });
    await row.getByText('Closed (Z 1)').waitFor();
    await row.getByText('-€0.50').waitFor();
    await row.getByRole('button', { name: 'Report of shift 1' }).click();
    await page.getByRole('heading', { name: 'Z report', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Print again', exact: true }).waitFor();
    await expectAccessible(page, "today's shifts");
    await screenshot(page, 'shifts-manager');
    // the same in German and French, the engine's figures formatted for the language
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByRole('heading', { name: 'Schichten von heute' }).waitFor();
    await page.getByRole('heading', { name: 'Z-Bericht', exact: true }).waitFor();
    expect(await page.getByLabel('Differenz', { exact: true }).textContent()).toBe('-0,50\u00a0€');
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('fr');
    await page.getByRole('heading', { name: 'Rapport Z', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Imprimer à nouveau', exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Langue' }).selectOption('en');
    // back to the sale: the box office keeps its screen over a reload, and the next test opens the page anew
    await page.keyboard.press('F6');
    await page.getByRole('heading', { name: 'Events' }).waitFor();
  }, 90_000);

  it('with requireShift, a cash sale with the drawer closed asks to open it first, then goes on to the cash step', async () => {
    const page = await ui.open('boxOffice');
    await expect.poll(() => drawerState(page).textContent()).toBe('Drawer closed');
    await page.getByRole('button', { name: CONCERT_12, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(adultSpin(page))).toBe(true);
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await page.getByRole('timer').waitFor();
    await page.keyboard.press('F2');
    const open = page.getByRole('dialog', { name: 'Open drawer' });
    await open.waitFor();
    await open.getByText('Cash needs an open drawer.', { exact: false }).waitFor();
    await expectAccessible(page, 'open drawer dialog, asked by a cash payment');
    await expect.poll(() => isFocused(open.getByRole('textbox', { name: 'Opening float', exact: true }))).toBe(true);
    await page.keyboard.type('100');
    await page.keyboard.press('Enter');
    await open.waitFor({ state: 'detached' });
    // the cash step opens with the cursor in the amount: Enter takes the exact amount
    await expect.poll(() => isFocused(page.getByRole('textbox', { name: 'Amount tendered (EUR)' }))).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Order confirmed/ }).waitFor();
    expect(await current()).toMatchObject({ status: 'open', openingFloat: { amount: 10000 } });
  });

  it('a shift closed elsewhere: the engine’s 409 SHIFT_NOT_OPEN opens the drawer dialog, and the payment goes through once it is open', async () => {
    const page = await ui.open('boxOffice');
    await expect.poll(() => drawerState(page).textContent()).toMatch(/^Drawer open since/);
    const open = await current();
    // another till of the same engine closes the shift behind this page's back
    expect((await ui.engine.request('POST', `/shifts/${open.id}/close`, { body: { counted: { amount: 0, currency: 'EUR' } } })).status).toBe(200);
    await page.getByRole('button', { name: CONCERT_12, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(adultSpin(page))).toBe(true);
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await page.getByRole('timer').waitFor();
    await page.keyboard.press('F2');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Open drawer' });
    await dialog.waitFor();
    await page.keyboard.type('50');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Order confirmed/ }).waitFor();
    expect(await current()).toMatchObject({ number: 3, openingFloat: { amount: 5000 } });
  });
});
