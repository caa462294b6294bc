import { describe, expect, it } from 'vitest';
import { encodeEscPos, type EscPosPaper } from '../../engine/printing/escpos';
import { renderHtml } from '../../engine/printing/html';
import { reportSlip } from '../../engine/printing/report-document';
import type { PrintLanguage } from '../../engine/contract/printing';
import { decodeEscPos, textOf } from '../helpers/escpos-decode';
import { fixtureReport } from '../unit/shifts/export-fixture';

/** A shift's X/Z report on the receipt printer: every figure, in the language asked for, a cut at the end, no drawer kick. */

const zone = 'Europe/Berlin';
const open = { ...fixtureReport, kind: 'X' as const, shift: { ...fixtureReport.shift, status: 'open' as const, closedAt: undefined, zNumber: undefined, counted: undefined, difference: undefined, note: undefined } };
const print = async (report = fixtureReport, language: PrintLanguage = 'en', paper: EscPosPaper = '80mm') =>
  decodeEscPos(await encodeEscPos({ tickets: [], receipt: undefined, report: reportSlip(report, { language, timeZone: zone }), openDrawer: false }, paper));

describe('the Z report on ESC/POS', () => {
  it('prints the title, the shift and Z numbers, the times, every figure and expected/counted/difference, then one cut and no drawer kick', async () => {
    const events = await print();
    const text = textOf(events);
    expect(text).toContain('Z report');
    expect(text).toContain('Shift 3 · Z no. 2');
    expect(text).toContain('Opened: 12/03/2027, 17:00');
    expect(text).toContain('Closed: 13/03/2027, 00:10');
    expect(text).toContain('Staff: Ana, "front desk"');
    for (const line of [/Orders \(2\)\s+€58\.00/, /Cancellations \(1\)\s+€12\.00/, /Cash \(1\)\s+€22\.00/, /Gift card \(1\)\s+€5\.00/, /Card \(1\)\s+CHF\s?30\.00/,
      /Brass, Strings & Co \(5 tickets\)\s+€58\.00/, /Opening float\s+€100\.00/, /Cash sales\s+€22\.00/, /Cash refunds\s+-€12\.00/, /Pay-ins\s+€20\.00/,
      /Pay-outs\s+-€8\.00/, /Expected\s+€122\.00/, /Counted\s+€121\.50/, /Difference\s+-€0\.50/]) expect(text).toMatch(line);
    expect(events.filter((event) => event.kind === 'cut')).toHaveLength(1);
    // nothing but line feeds after the cut
    expect(events.filter((event) => event.kind !== 'text' || event.text.trim() !== '').at(-1)).toMatchObject({ kind: 'cut' });
    expect(events.some((event) => event.kind === 'pulse')).toBe(false);
  });

  it('speaks German and French', async () => {
    const de = textOf(await print(fixtureReport, 'de'));
    for (const words of ['Z-Bericht', 'Schicht 3 · Z-Nr. 2', 'Soll', 'Gezählt', 'Differenz', 'Anfangsbestand']) expect(de).toContain(words);
    expect(de).toMatch(/Differenz\s+-0,50\s?€/);
    const fr = textOf(await print(fixtureReport, 'fr'));
    for (const words of ['Rapport Z', 'Session 3 · Z n° 2', 'Attendu', 'Compté', 'Écart', 'Fond de caisse']) expect(fr).toContain(words);
  });

  it('an open shift prints as an X report with its figures so far; 58 mm paper keeps to 32 columns', async () => {
    const text = textOf(await print(open, 'en', '58mm'));
    expect(text).toContain('X report');
    expect(text).not.toContain('Z no.');
    expect(text).toMatch(/Expected\s+€122\.00/);
    expect(text).not.toContain('Counted');
    expect(text).toContain('Shift still open');
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(32);
  });

  it('prints on a system printer as one page with the same figures', async () => {
    const html = await renderHtml({ tickets: [], receipt: undefined, report: reportSlip(fixtureReport, { language: 'en', timeZone: zone }), openDrawer: false }, '80mm');
    expect(html).toContain('<h1>Z report</h1>');
    expect(html).toContain('Difference');
    expect(html).toContain('&#34;front desk&#34;');
  });
});
