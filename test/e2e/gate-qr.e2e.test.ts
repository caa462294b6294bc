import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readQr, zxingQrDetector, type QrDetector } from '../../renderer/src/screens/gate/decode';
import { startUi, type UiHarness } from './browser';

/**
 * The QR codes the UI shows on an order's confirmation (contract §15: they encode the signed code) are what the
 * gate reads: a box-office cash sale from the keyboard, a screenshot of each ticket's QR read back by the gate's
 * decoder (ZXing-C++, wasm from node_modules), then checked in through the gate's key.
 */
describe('the tickets QR codes on screen', () => {
  let ui: UiHarness;
  let detector: QrDetector;
  const hadRect = 'DOMRectReadOnly' in globalThis;
  beforeAll(async () => {
    ui = await startUi();
    if (!hadRect) {
      // the one browser class the ponyfill uses that Node lacks (the bounding box of what it found)
      Object.defineProperty(globalThis, 'DOMRectReadOnly', {
        configurable: true,
        value: class {
          constructor(readonly x = 0, readonly y = 0, readonly width = 0, readonly height = 0) {}
        },
      });
    }
    detector = await zxingQrDetector({ wasmBinary: readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm')) });
  });
  afterAll(async () => {
    if (!hadRect) Reflect.deleteProperty(globalThis, 'DOMRectReadOnly');
    await ui.close();
  });

  it("encode each ticket's signed code, which the gate admits", async () => {
    const page = await ui.open('boxOffice');
    await page.getByRole('button', { name: 'Friday, 12 March 2027 at 20:30', exact: true }).click();
    await page.getByRole('region', { name: 'Standing', exact: true }).getByRole('spinbutton', { name: 'Adult', exact: true }).fill('2');
    await page.keyboard.press('Enter');
    await page.getByRole('timer').waitFor();
    await page.keyboard.press('F2');
    await page.getByRole('textbox', { name: 'Amount tendered (EUR)' }).waitFor();
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: /^Order confirmed/ });
    await heading.waitFor();
    const orderId = /\bord_[A-Za-z0-9_-]+/.exec((await heading.textContent()) ?? '')?.[0] ?? '';
    const order = await ui.engine.request<{ data: { tickets: { code: string; signedCode?: string }[] } }>('GET', `/orders/${orderId}`);
    const signed = order.body.data.tickets.map((ticket) => ticket.signedCode);
    expect(signed).toHaveLength(2);
    const images = page.locator('img.qr');
    await expect.poll(() => images.count()).toBe(2);
    const read: (string | undefined)[] = [];
    for (const image of await images.all()) read.push(await readQr(detector, new Blob([new Uint8Array(await image.screenshot())], { type: 'image/png' })));
    expect(read).toEqual(signed);
    for (const code of read) expect(code).toMatch(/^K1\./);

    const gateKey = ((await (await fetch(`${ui.engine.url}/ui-config.json`)).json()) as { gateKey: string }).gateKey;
    const admitted = await ui.engine.request<{ data: { result: string; ticket: { code: string } } }>('POST', '/checkins', { key: gateKey, body: { code: read[0], occurrenceId: 'brass-2027-03-12' } });
    expect([admitted.status, admitted.body.data.result, admitted.body.data.ticket.code]).toEqual([201, 'admitted', order.body.data.tickets[0]?.code]);
  });
});
