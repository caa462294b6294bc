import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, concertOrder } from '../helpers/checkins';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { CHROMIUM } from './browser';

/**
 * The gate's camera in Chromium, end to end: Chromium's fake camera plays a video of a ticket's QR code (a Y4M
 * file made here), the page (localhost: a secure context) gets it with getUserMedia once `Camera` is pressed, reads
 * it with ZXing-C++ (Chromium on Linux has no BarcodeDetector of its own) whose WebAssembly the engine serves under
 * its CSP, and checks the ticket in: `Admitted`.
 */

const SIDE = 480;

/** A Y4M video (4:2:0, full-range luma) of `frames` identical frames showing `text` as a QR code. */
function qrVideo(text: string, frames = 4): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.floor(SIDE / (modules.size + 8));
  const offset = Math.floor((SIDE - modules.size * scale) / 2);
  const luma = Buffer.alloc(SIDE * SIDE, 255);
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < scale; y += 1) luma.fill(0, (offset + row * scale + y) * SIDE + offset + col * scale, (offset + row * scale + y) * SIDE + offset + (col + 1) * scale);
    }
  }
  const chroma = Buffer.alloc((SIDE / 2) * (SIDE / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${SIDE} H${SIDE} F10:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: frames }, () => frame)]);
}

describe('the gate camera', () => {
  let engine: TestEngine;
  let browser: Browser;
  let dir: string;
  let code: string;
  beforeAll(async () => {
    engine = await startTestEngine();
    const order = await concertOrder(engine, 1, 'brass-2027-03-12');
    const ticket: { code: string; signedCode?: string } | undefined = order.tickets[0];
    // what the ticket's QR carries: its signed code (contract §15)
    code = ticket?.signedCode ?? codeOf(order);
    expect(code).toMatch(/^K1\./);
    dir = mkdtempSync(join(tmpdir(), 'kassa-gate-camera-'));
    const video = join(dir, 'ticket.y4m');
    writeFileSync(video, qrVideo(code));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    });
  });
  afterAll(async () => {
    await browser.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the ticket QR code in front of the camera and admits it, once while the ticket stays in view', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await context.grantPermissions(['camera'], { origin: engine.url });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    const wasm: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.wasm')) wasm.push(`${new URL(response.url()).origin} ${response.status()}`);
    });
    await page.goto(`${engine.url}/?mode=gate`);
    await page.getByRole('combobox', { name: 'Show' }).selectOption('brass-2027-03-12');
    const posted = page.waitForRequest((request) => request.url().endsWith('/api/v3/checkins') && request.method() === 'POST', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Camera' }).click();
    expect(((await posted).postDataJSON() as { code: string }).code).toBe(code);
    await page.getByRole('status').filter({ hasText: /^\s*Admitted/ }).waitFor();
    // the decoder came from the engine itself, never a CDN
    expect(wasm).toEqual([`${engine.url} 200`]);
    // a ticket held in front of the camera is one scan: no second check-in (and no red "Already inside") while it stays
    let again = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v3/checkins')) again += 1;
    });
    await page.waitForTimeout(4000);
    expect(again).toBe(0);
    await page.getByRole('status').filter({ hasText: /^\s*Admitted/ }).waitFor();
    await expect.poll(() => page.getByLabel('Admitted', { exact: true }).textContent()).toBe('1');
    expect(problems).toEqual([]);
    await page.getByRole('button', { name: 'Camera' }).click();
    await context.close();
  });
});
