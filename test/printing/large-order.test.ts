import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printDocument, ticketSlips } from '../../engine/printing/document';
import { encodeEscPos } from '../../engine/printing/escpos';
import { renderHtml } from '../../engine/printing/html';
import { ticketsPdf } from '../../engine/printing/pdf';
import { largeFixedOrder } from './fixed-order';

/**
 * A large order's printout, rendered in slices that give the event loop a turn (issue #22), is byte for byte
 * what rendering it in one go wrote: golden files made with the one-go renderers before the change pin the
 * ESC/POS bytes and the digests of the PDFs and the system printer's page (UPDATE_GOLDEN=1 rewrites them after
 * a deliberate change).
 */

const GOLDEN = join(import.meta.dirname, '..', 'fixtures', 'golden');
const zone = 'Europe/Berlin';
const COUNT = 40;

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`golden file ${file} is missing: run with UPDATE_GOLDEN=1 once and commit it`);
    writeFileSync(file, `${actual}\n`);
  }
  expect(actual).toBe(readFileSync(file, 'utf8').trim());
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

describe(`a large order (${COUNT} tickets) prints the same bytes as before it was rendered in slices`, () => {
  it('ESC/POS: every ticket, the receipt and the drawer kick, in French on 58 mm paper (with code page switches)', async () => {
    const bytes = await encodeEscPos(printDocument(largeFixedOrder(COUNT), { what: 'all', language: 'fr', timeZone: zone, openDrawer: true }), '58mm');
    golden('large-order-58mm-cash-fr.hex', Buffer.from(bytes).toString('hex').replace(/(.{64})/g, '$1\n').trim());
  });

  it('ESC/POS: tickets only, in German on 80 mm paper', async () => {
    const bytes = await encodeEscPos(printDocument(largeFixedOrder(COUNT, 'card'), { what: 'tickets', language: 'de', timeZone: zone, openDrawer: false }), '80mm');
    golden('large-order-80mm-tickets-de.sha256', sha256(bytes));
  });

  it.each(['a4', '80mm'] as const)('the tickets PDF (%s)', async (size) => {
    const order = largeFixedOrder(COUNT);
    const pdf = await ticketsPdf(ticketSlips(order, { language: 'de', timeZone: zone }), size, { title: `The Tempest — ${order.id}`, createdAt: new Date(order.createdAt) });
    golden(`large-order-${size}.pdf.sha256`, sha256(pdf));
  });

  it('the system printer\'s page', async () => {
    const html = await renderHtml(printDocument(largeFixedOrder(COUNT), { what: 'all', language: 'en', timeZone: zone, openDrawer: true }), '80mm');
    golden('large-order-80mm.html.sha256', sha256(html));
  });
});
