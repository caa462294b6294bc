import type { BarcodeDetector as PonyfillDetector, prepareZXingModule } from 'barcode-detector/ponyfill';

/** The Emscripten module's overrides: where its WebAssembly comes from (`locateFile`, or the bytes as `wasmBinary`). */
export type ZXingModuleOverrides = NonNullable<NonNullable<Parameters<typeof prepareZXingModule>[0]>['overrides']>;

/**
 * Reading a ticket's QR code from a picture: the browser's own BarcodeDetector where it has one that reads QR
 * codes, else the `barcode-detector` ponyfill (ZXing-C++ in WebAssembly). The camera loop and the unit test use
 * the same functions; only where the WebAssembly file comes from differs (the engine's own origin in the page,
 * node_modules in the test) — never a CDN.
 */
export interface QrDetector {
  detect(source: Parameters<PonyfillDetector['detect']>[0]): Promise<readonly { rawValue: string; format: string }[]>;
}

declare global {
  // the browser's own (Chromium on Android, macOS, ChromeOS; not on Linux or Windows desktops)
  var BarcodeDetector: typeof PonyfillDetector | undefined;
}

/** The browser's own detector, when it reads QR codes; undefined otherwise. */
export async function nativeQrDetector(): Promise<QrDetector | undefined> {
  const Native = globalThis.BarcodeDetector;
  if (Native === undefined) return undefined;
  try {
    const formats = await Native.getSupportedFormats();
    return formats.includes('qr_code') ? new Native({ formats: ['qr_code'] }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ZXing-C++ detector, its WebAssembly located by `overrides` (`locateFile` in the page, `wasmBinary` in Node).
 * Loaded on demand: the page downloads it only when the camera is switched on in a browser without its own.
 */
export async function zxingQrDetector(overrides: ZXingModuleOverrides): Promise<QrDetector> {
  const { BarcodeDetector, prepareZXingModule } = await import('barcode-detector/ponyfill');
  await prepareZXingModule({ overrides, fireImmediately: true });
  return new BarcodeDetector({ formats: ['qr_code'] });
}

/** The text of the first QR code in the picture, or undefined when there is none. */
export async function readQr(detector: QrDetector, source: Parameters<QrDetector['detect']>[0]): Promise<string | undefined> {
  const found = await detector.detect(source);
  return found.find((barcode) => barcode.format === 'qr_code' && barcode.rawValue !== '')?.rawValue;
}
