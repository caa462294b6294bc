import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printDocument } from '../../engine/printing/document';
import { encodeEscPos, type EscPosPaper } from '../../engine/printing/escpos';
import { decodeEscPos, slipsOf, textOf, type EscPosEvent } from '../helpers/escpos-decode';
import { fixedOrder } from './fixed-order';

/**
 * ESC/POS encoding of a fixed order (fixed clock, fixed codes), read back with a decoder: each ticket's
 * code as text and as a QR payload, a cut per slip, the receipt's total, the drawer kick on cash only;
 * and the exact bytes pinned by golden files (UPDATE_GOLDEN=1 rewrites them after a deliberate change).
 */

const GOLDEN = join(import.meta.dirname, '..', 'fixtures', 'golden');
const zone = 'Europe/Berlin';

const encode = (options: { payment?: 'cash' | 'card'; what?: 'all' | 'tickets' | 'receipt'; language?: 'en' | 'de' | 'fr'; paper?: EscPosPaper; openDrawer?: boolean }) =>
  encodeEscPos(
    printDocument(fixedOrder(options.payment ?? 'cash'), {
      what: options.what ?? 'all',
      language: options.language ?? 'en',
      timeZone: zone,
      openDrawer: options.openDrawer ?? (options.payment ?? 'cash') === 'cash',
    }),
    options.paper ?? '80mm',
  );

const kinds = (events: readonly EscPosEvent[], kind: EscPosEvent['kind']) => events.filter((event) => event.kind === kind);

describe('ESC/POS tickets and receipt', () => {
  it('prints each ticket with event, date, venue, area, seat and its code as text and QR, then a cut', async () => {
    const events = decodeEscPos(await encode({}));
    const slips = slipsOf(events);
    // two tickets and the receipt, each ending in a cut; then the drawer kick of this cash sale
    expect(slips).toHaveLength(4);
    expect(slips[3]?.filter((event) => event.kind !== 'text')).toEqual([{ kind: 'pulse', pin: 0, onMs: 100, offMs: 500 }]);
    for (const [index, code] of ['KX7Q-2M9D', 'PL3V-8WZR'].entries()) {
      const slip = slips[index] ?? [];
      const text = textOf(slip);
      expect(text).toContain('The Tempest');
      expect(text).toContain('Friday, 2 April 2027 at 20:00');
      expect(text).toContain('Théâtre du Globe');
      expect(text).toContain('Area: Stalls');
      expect(text).toContain(`Seat: Row A, Seat ${index + 1}`);
      expect(text).toContain(code);
      expect(kinds(slip, 'qr')).toEqual([{ kind: 'qr', data: code }]);
      expect(slip.at(-1)).toMatchObject({ kind: 'cut' });
    }
    expect(kinds(events, 'cut')).toHaveLength(3);
  });

  it('prints the receipt with every line, the total and the payment, and kicks the drawer after it on a cash sale', async () => {
    const events = decodeEscPos(await encode({ what: 'receipt' }));
    const text = textOf(events);
    for (const line of ['Adult × 1', 'Student × 1', 'Parking × 1', 'Voucher WELCOME10']) expect(text).toContain(line);
    expect(text).toMatch(/Total\s+€78\.20/);
    expect(text).toMatch(/-€7\.80/);
    expect(text).toMatch(/Paid in cash\s+€78\.20/);
    expect(text).toMatch(/Tendered\s+€100\.00/);
    expect(text).toMatch(/Change\s+€21\.80/);
    expect(kinds(events, 'qr')).toEqual([]);
    expect(kinds(events, 'pulse')).toEqual([{ kind: 'pulse', pin: 0, onMs: 100, offMs: 500 }]);
    // the drawer opens once the receipt is cut
    expect(events.findIndex((event) => event.kind === 'pulse')).toBeGreaterThan(events.findIndex((event) => event.kind === 'cut'));
  });

  it('never opens the drawer for a card sale, tickets alone, or a reprint', async () => {
    expect(kinds(decodeEscPos(await encode({ payment: 'card' })), 'pulse')).toEqual([]);
    expect(kinds(decodeEscPos(await encode({ what: 'tickets' })), 'pulse')).toEqual([]);
    expect(kinds(decodeEscPos(await encode({ what: 'all', openDrawer: false })), 'pulse')).toEqual([]);
    expect(textOf(decodeEscPos(await encode({ payment: 'card', what: 'receipt' })))).toMatch(/Paid by card\s+€78\.20/);
  });

  it('prints in the order\'s language: German and French labels, dates and money', async () => {
    const de = textOf(decodeEscPos(await encode({ language: 'de' })));
    expect(de).toContain('Eintrittskarte');
    expect(de).toContain('Freitag, 2. April 2027 um 20:00');
    expect(de).toContain('Bereich: Stalls');
    expect(de).toMatch(/Summe\s+78,20 €/);
    expect(de).toMatch(/Rückgeld\s+21,80 €/);
    const fr = textOf(decodeEscPos(await encode({ language: 'fr' })));
    expect(fr).toContain('Billet');
    expect(fr).toContain('vendredi 2 avril 2027 à 20:00');
    expect(fr).toMatch(/Total\s+78,20 €/);
    expect(fr).toMatch(/Payé en espèces\s+78,20 €/);
  });

  it("prints the show's date on the venue's clock (its location's timeZone) whatever zone the engine prints in", async () => {
    const order = fixedOrder('card');
    const inNewYork = { ...order, event: order.event && { ...order.event, location: { ...order.event.location, timeZone: 'America/New_York' } } };
    const slips = slipsOf(decodeEscPos(await encodeEscPos(printDocument(inNewYork, { what: 'tickets', language: 'en', timeZone: zone, openDrawer: false }), '80mm')));
    // 18:00 UTC on 2 April 2027 is 14:00 in New York (EDT) and 20:00 in Berlin
    expect(textOf(slips[0] ?? [])).toContain('Friday, 2 April 2027 at 14:00');
    expect(textOf(slips[0] ?? [])).not.toContain('20:00');
  });

  it('fits 58 mm paper: no line wider than 32 columns', async () => {
    const wide = textOf(decodeEscPos(await encode({ paper: '80mm' }))).split('\n');
    const narrow = textOf(decodeEscPos(await encode({ paper: '58mm' }))).split('\n');
    expect(Math.max(...wide.map((line) => line.length))).toBeGreaterThan(32);
    expect(Math.max(...narrow.map((line) => line.length))).toBeLessThanOrEqual(32);
    expect(Math.max(...wide.map((line) => line.length))).toBeLessThanOrEqual(48);
  });

  it.each([
    ['order-80mm-cash-en', {}],
    ['order-58mm-card-de', { paper: '58mm' as const, payment: 'card' as const, language: 'de' as const }],
  ])('matches the golden bytes %s', async (name, options) => {
    const file = join(GOLDEN, `${name}.hex`);
    const hex = Buffer.from(await encode(options)).toString('hex').replace(/(.{64})/g, '$1\n').trim();
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
      if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`golden file ${file} is missing: run with UPDATE_GOLDEN=1 once and commit it`);
      writeFileSync(file, `${hex}\n`);
    }
    expect(hex).toBe(readFileSync(file, 'utf8').trim());
  });
});
