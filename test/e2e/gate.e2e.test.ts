import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, concertOrder } from '../helpers/checkins';
import { screenshot, startUi, type UiHarness } from './browser';

/**
 * The gate screen (`?mode=gate`, contract §9 "Gate", §15) in Chromium on a phone in portrait: a keyboard-wedge
 * scan (the code typed, then Enter) into `Ticket code`, which keeps the focus; one verdict at a time; the counts.
 */

const PHONE = { width: 390, height: 844 };
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it is: no violation of any impact (stricter than the other screens' check). */
async function expectAxeClean(page: Page, screen: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map(({ id, impact, nodes }) => ({ id, impact, targets: nodes.slice(0, 3).map((node) => node.target) }));
  });
  expect(violations, `${screen}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

/** What a 2D scanner reads off the ticket's QR and types: its signed code (contract §15). */
function qrOf(order: Awaited<ReturnType<typeof concertOrder>>): string {
  const ticket: { code: string; signedCode?: string } | undefined = order.tickets[0];
  expect(ticket?.signedCode).toMatch(/^K1\./);
  return ticket?.signedCode ?? codeOf(order);
}

describe('the gate screen', () => {
  let ui: UiHarness;
  let first: string;
  let otherShow: string;
  beforeAll(async () => {
    ui = await startUi();
    first = qrOf(await concertOrder(ui.engine, 1, 'brass-2027-03-12'));
    otherShow = codeOf(await concertOrder(ui.engine, 1, 'brass-2027-03-13'));
  });
  afterAll(() => ui.close());

  async function openGate(query = ''): Promise<Page> {
    const context = await ui.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto(`${ui.engine.url}/?mode=gate${query}`);
    await page.getByLabel('Ticket code', { exact: true }).or(page.getByLabel('Ticketcode')).or(page.getByLabel('Code du billet')).waitFor();
    expect(problems).toEqual([]);
    return page;
  }

  /** A keyboard-wedge scanner: the characters, then Enter, into whatever has the focus. */
  async function scan(page: Page, code: string): Promise<void> {
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
  }

  /** The element's text as read: whitespace runs as one space, trimmed. */
  const textOf = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  const verdict = (page: Page, role: 'status' | 'alert', start: string) => page.getByRole(role).filter({ hasText: new RegExp(`^\\s*${start}`) });

  it('admits a ticket scanned by a keyboard wedge, then says it is already inside (since when, at which gate), a wrong show and a code that is not valid; counts it', async () => {
    const page = await openGate();
    await expect.poll(() => page.getByText('Online', { exact: true }).isVisible()).toBe(true);
    const show = page.getByRole('combobox', { name: 'Show' });
    // named by the event and its start on the venue's clock
    await expect.poll(() => show.locator('option[value="brass-2027-03-12"]').textContent()).toBe('Fri 12 Mar, 20:30 · Midnight Brass — Live in Concert');
    await show.selectOption('brass-2027-03-12');
    const field = page.getByRole('textbox', { name: 'Ticket code' });
    await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
    // the gate's name, kept on this device and sent with each check-in; Enter gives the focus back to the code
    await page.getByRole('textbox', { name: 'Gate name' }).fill('B');
    await page.keyboard.press('Enter');
    await expectAxeClean(page, 'gate, ready');
    // large touch targets on a phone: every control of the gate at least 44×44 CSS px
    const small = await page.locator('main.gate').evaluate((gate) =>
      [...gate.querySelectorAll('button, input, select')].map((control) => ({ name: control.id || control.textContent, box: control.getBoundingClientRect() })).filter(({ box }) => box.width < 44 || box.height < 44).map(({ name }) => name));
    expect(small).toEqual([]);

    const admitted = page.waitForResponse((response) => response.url().endsWith('/api/v3/checkins'));
    await scan(page, first);
    const answer = (await (await admitted).json()) as { data: { at: string; gate: string } };
    expect(answer.data.gate).toBe('B');
    await verdict(page, 'status', 'Admitted').waitFor();
    await expect.poll(() => textOf(verdict(page, 'status', 'Admitted'))).toContain('Midnight Brass');
    await expect.poll(() => textOf(page.getByLabel('Inside', { exact: true }))).toBe('1');
    await expect.poll(() => textOf(page.getByLabel('Admitted', { exact: true }))).toBe('1');
    await expect.poll(() => textOf(page.getByLabel('Sold', { exact: true }))).toBe('1');
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe('');
    await screenshot(page, 'gate-admitted');
    await expectAxeClean(page, 'gate, admitted');

    await scan(page, first);
    const since = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(new Date(answer.data.at));
    await expect.poll(() => textOf(verdict(page, 'alert', 'Already inside'))).toBe(`Already inside since ${since} at gate B`);
    await expect.poll(() => textOf(page.getByLabel('Inside', { exact: true }))).toBe('1');
    await screenshot(page, 'gate-already-inside');
    await expectAxeClean(page, 'gate, already inside');

    await scan(page, otherShow);
    await expect.poll(() => textOf(verdict(page, 'alert', 'Wrong show'))).toBe('Wrong show — this ticket is for Sat 13 Mar, 20:30');
    await expectAxeClean(page, 'gate, wrong show');

    for (const garbage of ['not a ticket!', 'ABCDEFGHJKMNPQRSTVWX', 'K1.e30.AAAA.abcdefghijkl']) {
      await scan(page, garbage);
      await verdict(page, 'alert', 'Not valid').waitFor();
      expect(await page.getByRole('alert').count()).toBe(1);
    }
    await expectAxeClean(page, 'gate, not valid');
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(() => textOf(page.getByLabel('Inside', { exact: true }))).toBe('1');
  });

  it('lets a ticket out with Exit and in again (re-entry)', async () => {
    const page = await openGate();
    const ticket = codeOf(await concertOrder(ui.engine, 1, 'brass-2027-03-12'));
    await page.getByRole('combobox', { name: 'Show' }).selectOption('brass-2027-03-12');
    await page.getByRole('textbox', { name: 'Ticket code' }).focus();
    await scan(page, ticket);
    await verdict(page, 'status', 'Admitted').waitFor();
    const exit = page.getByRole('button', { name: 'Exit' });
    await exit.click();
    await expect.poll(() => exit.getAttribute('aria-pressed')).toBe('true');
    // the focus went back to the code: the scanner's next code lands there
    await scan(page, ticket);
    await verdict(page, 'status', 'Left').waitFor();
    await scan(page, ticket);
    await verdict(page, 'alert', 'Not inside').waitFor();
    await exit.click();
    await expect.poll(() => exit.getAttribute('aria-pressed')).toBe('false');
    await scan(page, ticket);
    await verdict(page, 'status', 'Admitted').waitFor();
    await expectAxeClean(page, 'gate, re-entry');
  });

  it('speaks German and French', async () => {
    const de = await openGate('&lang=de');
    await de.getByRole('combobox', { name: 'Vorstellung' }).waitFor();
    await de.getByRole('textbox', { name: 'Ticketcode' }).waitFor();
    await de.getByLabel('Drinnen', { exact: true }).waitFor();
    await de.getByRole('button', { name: 'Kamera' }).waitFor();
    await scan(de, 'kein Ticket');
    await verdict(de, 'alert', 'Ungültig').waitFor();
    await expectAxeClean(de, 'gate in German');

    const fr = await openGate('&lang=fr');
    await fr.getByRole('combobox', { name: 'Séance' }).waitFor();
    await fr.getByRole('textbox', { name: 'Code du billet' }).waitFor();
    await fr.getByLabel('Présents', { exact: true }).waitFor();
    await scan(fr, 'pas un billet');
    await verdict(fr, 'alert', 'Non valable').waitFor();
    await screenshot(fr, 'gate-fr-not-valid');
    await expectAxeClean(fr, 'gate in French');
  });

  it('on another device of the LAN (no key from the engine) asks once for a gate key, tries it, keeps it and checks tickets with it', async () => {
    const context = await ui.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    // what the engine answers a page that is not on its own machine (engine/http/routes/ui.ts)
    await context.route('**/ui-config.json', (route) => route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ error: { type: 'PERMISSION_ERROR', code: 'ORIGIN_NOT_ALLOWED', message: 'no' } }) }));
    const page = await context.newPage();
    await page.goto(`${ui.engine.url}/?mode=gate`);
    const keyField = page.getByRole('textbox', { name: 'Gate key' });
    await keyField.waitFor();
    await keyField.fill('kassa_not_a_key');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'This key is refused' }).waitFor();
    await expectAxeClean(page, 'gate key entry');
    await keyField.fill(await ui.engine.createKey(['catalog:read', 'checkin', 'sync:status']));
    await page.keyboard.press('Enter');
    const ticket = codeOf(await concertOrder(ui.engine, 1, 'brass-2027-03-12'));
    await page.getByRole('combobox', { name: 'Show' }).selectOption('brass-2027-03-12');
    await scan(page, ticket);
    await verdict(page, 'status', 'Admitted').waitFor();
    // kept on the device: a reload goes straight to the gate
    await page.reload();
    await page.getByRole('textbox', { name: 'Ticket code' }).waitFor();
    await context.close();
  });

  it('serves the barcode decoder itself: the WebAssembly from its own origin, allowed by the CSP', async () => {
    const page = await ui.browser.newPage();
    const html = await page.goto(`${ui.engine.url}/?mode=gate`);
    expect(html?.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
    const scripts = await page.evaluate(() => [...document.querySelectorAll('script[src]')].map((script) => script.getAttribute('src') ?? ''));
    const bundle = await (await fetch(new URL(scripts[0] ?? '', `${ui.engine.url}/`))).text();
    const wasm = /zxing_reader-[\w-]+\.wasm/.exec(bundle)?.[0];
    expect(wasm, 'the wasm asset named in the bundle').toBeDefined();
    const response = await fetch(`${ui.engine.url}/assets/${wasm ?? ''}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/wasm');
    expect(new Uint8Array(await response.arrayBuffer()).subarray(0, 4)).toEqual(new Uint8Array([0x00, 0x61, 0x73, 0x6d]));
    await page.close();
  });
});
