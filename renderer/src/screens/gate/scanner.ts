import zxingWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { nativeQrDetector, zxingQrDetector, type QrDetector } from './decode';

/**
 * The camera's detector in the page: the browser's own, else ZXing-C++ with its WebAssembly file bundled by Vite
 * and served by the engine itself (dist/renderer/assets), never fetched from a CDN.
 */
export async function pageQrDetector(): Promise<QrDetector> {
  return (await nativeQrDetector()) ?? zxingQrDetector({ locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? zxingWasmUrl : prefix + path) });
}
