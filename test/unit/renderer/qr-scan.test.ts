import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readQr, zxingQrDetector, type QrDetector } from '../../../renderer/src/screens/gate/decode';

/**
 * The gate's camera path with a picture instead of a camera (issue #26): a ticket's QR code, made as the
 * confirmation and the printed tickets make it, read back by the decoder the camera loop uses — the
 * `barcode-detector` ponyfill, ZXing-C++ in WebAssembly — with its wasm from node_modules, as the engine serves it.
 */

const require = createRequire(import.meta.url);
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** A signed code in contract §15's format, signed with a fresh Ed25519 key (what a ticket's QR carries). */
function signedCode(): string {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const keyId = base64url(createHash('sha256').update(raw).digest()).slice(0, 12);
  const payload = Buffer.from(JSON.stringify(['7H2KQ9XW4M8PB3RT6VYC', 'brass-2027-03-12', 'standing', null, 'ord_3f1c9a2e-5b7d-4e8f-9a0b-1c2d3e4f5a6b']), 'utf8');
  return `K1.${base64url(payload)}.${base64url(sign(null, payload, privateKey))}.${keyId}`;
}

describe('reading a ticket QR code (the gate camera decoder)', () => {
  let detector: QrDetector;
  const hadRect = 'DOMRectReadOnly' in globalThis;
  beforeAll(async () => {
    // the one browser class the ponyfill uses that Node lacks (the bounding box of what it found)
    if (!hadRect) {
      Object.defineProperty(globalThis, 'DOMRectReadOnly', {
        configurable: true,
        value: class {
          constructor(readonly x = 0, readonly y = 0, readonly width = 0, readonly height = 0) {}
        },
      });
    }
    detector = await zxingQrDetector({ wasmBinary: readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm')) });
  });
  afterAll(() => {
    if (!hadRect) Reflect.deleteProperty(globalThis, 'DOMRectReadOnly');
  });

  it('reads the signed code back from a PNG of its QR code', async () => {
    const text = signedCode();
    expect(text).toMatch(/^K1\.[\w-]+\.[\w-]{86}\.[\w-]{12}$/);
    const png = await QRCode.toBuffer(text, { type: 'png', margin: 4, scale: 4, errorCorrectionLevel: 'M' });
    expect(await readQr(detector, new Blob([png], { type: 'image/png' }))).toBe(text);
  });

  it('reads an old ticket\'s 20-character code, and a small QR in a larger picture (a phone held at a distance)', async () => {
    const png = await QRCode.toBuffer('7H2KQ9XW4M8PB3RT6VYC', { type: 'png', margin: 40, scale: 2 });
    expect(await readQr(detector, new Blob([png], { type: 'image/png' }))).toBe('7H2KQ9XW4M8PB3RT6VYC');
  });

  it('finds nothing in a picture without a QR code', async () => {
    // a QR code's PNG with its modules painted over: an all-white image of the same size
    const png = await QRCode.toBuffer('blank', { type: 'png', margin: 4, scale: 4, color: { dark: '#ffffffff', light: '#ffffffff' } });
    expect(await readQr(detector, new Blob([png], { type: 'image/png' }))).toBeUndefined();
  });

  it('the wasm in node_modules (what Vite bundles for the engine to serve) is the one the ponyfill was built for', async () => {
    const { ZXING_WASM_SHA256 } = await import('barcode-detector/ponyfill');
    const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    expect(createHash('sha256').update(wasm).digest('hex')).toBe(ZXING_WASM_SHA256);
  });
});
