import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { EngineOptions } from '../../engine/start';
import { startTestEngine, TEST_STAFF_PIN, type TestEngine } from '../helpers/engine';

/**
 * End-to-end: the real engine on a free loopback port with a fresh database, serving the built UI
 * (npm test builds it first), driven in Debian's Chromium by playwright-core.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const VIEWPORTS = {
  boxOffice: { width: 1366, height: 768 },
  kiosk: { width: 1080, height: 1920 },
} as const;

export interface UiHarness {
  engine: TestEngine;
  browser: Browser;
  /**
   * a fresh page (own context) on the UI, with `query` appended (e.g. "mode=kiosk&idle=3"); the box office (any
   * page not opened with mode=kiosk) is signed in with the test engine's staff PIN unless `signIn: false`
   */
  open(viewport: keyof typeof VIEWPORTS, query?: string, options?: { signIn?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

export async function startUi(options: Partial<EngineOptions> = {}): Promise<UiHarness> {
  const engine = await startTestEngine(options);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  const pages: Page[] = [];
  return {
    engine,
    browser,
    async open(viewport, query = '', openOptions = {}) {
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport], locale: 'en-GB', timezoneId: 'Europe/Berlin' });
      const page = await context.newPage();
      pages.push(page);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(String(error)));
      await page.goto(`${engine.url}/${query ? `?${query}` : ''}`);
      if (new URLSearchParams(query).get('mode') !== 'kiosk' && openOptions.signIn !== false) await signInStaff(page);
      return page;
    },
    async close() {
      await browser.close();
      await engine.close();
    },
  };
}

/** The box office's staff sign-in, from the keyboard: the PIN field has the focus, Enter signs in. */
export async function signInStaff(page: Page, pin: string = TEST_STAFF_PIN): Promise<void> {
  const field = page.getByLabel('Staff PIN', { exact: true });
  await field.waitFor();
  await page.keyboard.type(pin);
  await page.keyboard.press('Enter');
  await field.waitFor({ state: 'detached' });
}

/** Saves a screenshot under test-results/screenshots/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation. axe is evaluated
 * through the DevTools protocol, so the page's own Content-Security-Policy stays in force.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.slice(0, 3).map((node) => ({ target: node.target })) }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious, `${screen}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}
