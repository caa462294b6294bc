import { describe, expect, it } from 'vitest';
import { csvField, csvFile } from '../../../engine/shifts/csv';
import { exportFileName, exportZip } from '../../../engine/shifts/export-zip';
import { parseCsv, records, unzipText as unzip } from '../../helpers/shift-export';
import { fixtureEntries, fixtureReport } from './export-fixture';

/** The shift export's zip (design "Export and print"): its files, their columns, and totals that agree with the report. */

const sum = (rows: Record<string, string>[], column: string) => rows.reduce((total, row) => total + Number(row[column]), 0);
const madeAt = new Date('2027-03-13T08:00:00.000Z');

describe('CSV (RFC 4180)', () => {
  it('quotes a field with a comma, a quote or a line break, doubles the quote, ends every record with CRLF', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(-250)).toBe('-250');
    expect(csvField(undefined)).toBe('');
    expect(csvFile(['a', 'b'], [['x,y', 1]])).toBe('a,b\r\n"x,y",1\r\n');
    expect(() => csvFile(['a', 'b'], [['only one']])).toThrow(RangeError);
  });
});

describe('a shift export', () => {
  const files = unzip(exportZip(fixtureReport, fixtureEntries, madeAt));
  const file = (name: string) => {
    const content = files[name];
    if (content === undefined) throw new Error(`${name} is not in the zip`);
    return content;
  };

  it('holds README.txt and the seven CSV files, named as the download is', () => {
    expect(Object.keys(files).sort()).toEqual(['README.txt', 'cancellations.csv', 'cash_movements.csv', 'events.csv', 'journal.csv', 'orders.csv', 'payments.csv', 'shift.csv']);
    expect(exportFileName(fixtureReport)).toBe('kassa-shift-3.zip');
  });

  it('README names every column of every file, the format, and what DSFinV-K and NF525 would still need', () => {
    const readme = file('README.txt');
    for (const [name, content] of Object.entries(files)) {
      if (name === 'README.txt') continue;
      expect(readme).toContain(`${name}: `);
      for (const column of parseCsv(content)[0] ?? []) expect(readme, `${name} ${column}`).toMatch(new RegExp(`^  ${column}: `, 'm'));
    }
    expect(readme).toContain('UTF-8');
    expect(readme).toContain('RFC 4180');
    expect(readme).toContain('minor units');
    for (const words of ['DSFinV-K', 'cashpointclosing.csv', 'TSE', 'BSI', 'NF525', 'cumulative', 'INFOCERT', 'LNE']) expect(readme).toContain(words);
    expect(readme).toContain('Z 2 (Z report)');
  });

  it('journal.csv lists every entry in seq order with its hashes and its data as canonical JSON', () => {
    const rows = records(file('journal.csv'));
    expect(rows.map((row) => Number(row.seq))).toEqual(fixtureEntries.map((entry) => entry.seq));
    for (const [index, entry] of fixtureEntries.entries()) {
      const row = rows[index];
      expect(row).toMatchObject({ kind: entry.kind, ref: entry.ref, prev_hash: entry.prevHash, hash: entry.hash, at: entry.at });
      expect(row?.amount).toBe(entry.amount ? String(entry.amount.amount) : '');
      expect(JSON.parse(row?.data ?? '')).toEqual(entry.data);
      expect(row?.data).not.toMatch(/\s(?=(?:[^"]*"[^"]*")*[^"]*$)/); // no whitespace outside strings
    }
    // keys sorted: "orderId" before "payments" before "shiftId"
    const data = rows[1]?.data ?? '';
    expect(data.indexOf('"orderId"')).toBeGreaterThan(0);
    expect(data.indexOf('"orderId"')).toBeLessThan(data.indexOf('"shiftId"'));
  });

  it('shift.csv is one row with the report\'s totals, the Z figures and the journal range', () => {
    const [row, ...more] = records(file('shift.csv'));
    expect(more).toEqual([]);
    const { cash } = fixtureReport;
    expect(row).toEqual({
      shift_id: 'shf_fixture', number: '3', status: 'closed', report: 'Z', z_number: '2', opened_at: '2027-03-12T16:00:00.000Z', closed_at: '2027-03-12T23:10:00.000Z',
      staff: 'Ana, "front desk"', currency: 'EUR', opening_float: '10000', orders_count: '2', orders_total: '5800', cancellations_count: '1', cancellations_total: '1200',
      cash_sales: String(cash.sales.amount), cash_refunds: '1200', pay_ins: '2000', pay_outs: '800', expected: '12200', counted: '12150', difference: '-50',
      note: 'coins\r\nshort', first_seq: '11', last_seq: '17', last_hash: fixtureEntries.at(-1)?.hash,
    });
  });

  it('orders, cancellations and movements agree with the report', () => {
    const orders = records(file('orders.csv'));
    expect(orders).toHaveLength(fixtureReport.orders.count);
    expect(sum(orders, 'base_total')).toBe(fixtureReport.orders.total.amount);
    expect(orders[1]).toMatchObject({ order_id: 'ord_2', total: '3000', currency: 'CHF', base_total: '3100', base_currency: 'EUR', tickets: '2', payments: 'card=3000 CHF' });
    expect(orders[0]?.payments).toBe('giftCard=500 EUR;cash=2200 EUR');
    const cancellations = records(file('cancellations.csv'));
    expect(cancellations).toHaveLength(fixtureReport.cancellations.count);
    expect(sum(cancellations, 'base_total')).toBe(fixtureReport.cancellations.total.amount);
    expect(cancellations[0]).toMatchObject({ order_id: 'ord_0', amount: '1200', refunds: 'cash=1200 EUR' });
    const movements = records(file('cash_movements.csv'));
    expect(movements.map((row) => [row.kind, row.amount, row.reason])).toEqual([
      ['payIn', '2000', 'change, from the safe'],
      ['payOut', '800', '=SUM(A1) "tip"'],
    ]);
    expect(sum(movements.filter((row) => row.kind === 'payIn'), 'amount')).toBe(fixtureReport.cash.payIns.amount);
    expect(sum(movements.filter((row) => row.kind === 'payOut'), 'amount')).toBe(fixtureReport.cash.payOuts.amount);
  });

  it('payments.csv and events.csv are the report\'s byMethod and byEvent rows', () => {
    expect(records(file('payments.csv'))).toEqual(fixtureReport.byMethod.map((row) => ({ method: row.method, currency: row.total.currency, count: String(row.count), total: String(row.total.amount) })));
    expect(records(file('events.csv'))).toEqual([{ event_id: 'evt_brass', name: 'Brass, Strings & Co', tickets: '5', total: '5800', currency: 'EUR' }]);
  });

  it('a closed shift exports to the same bytes twice; an open one is an X export dated when made', () => {
    expect(exportZip(fixtureReport, fixtureEntries, new Date())).toEqual(exportZip(fixtureReport, fixtureEntries, madeAt));
    const open = { ...fixtureReport, kind: 'X' as const, shift: { ...fixtureReport.shift, status: 'open' as const, closedAt: undefined, zNumber: undefined, counted: undefined, difference: undefined, note: undefined } };
    const x = unzip(exportZip(open, fixtureEntries.slice(0, -1), madeAt));
    expect(records(x['shift.csv'] ?? '')[0]).toMatchObject({ status: 'open', report: 'X', z_number: '', closed_at: '', counted: '', difference: '', last_seq: '16' });
    expect(x['README.txt']).toContain('X export');
  });
});
