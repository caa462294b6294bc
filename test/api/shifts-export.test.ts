import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { journalEntries, recomputedHash, type JournalEntry } from '../helpers/journal';
import { card, cash, checkout, eur, expectError, orderOf, type Order } from '../helpers/orders';
import { downloadExport, parseCsv, records, unzipText } from '../helpers/shift-export';
import { closeShift, moveCash, openShift, reportOf } from '../helpers/shifts';

/**
 * GET /shifts/{id}/export (scope admin; design "Export and print"), on both databases: the zip of a closed shift
 * with sales, a cancellation and drawer movements holds every journal entry of the shift with its hash (each one
 * recomputable from its CSV row), totals that are the Z report's, and a README naming every column.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

const sell = async (quantity: number, payment: Parameters<typeof checkout>[3]): Promise<Order> => {
  const cart = await createCart(engine, [concert(quantity)]);
  return orderOf(await checkout(engine, cart.id, cart.total, payment));
};
const sum = (rows: Record<string, string>[], column: string) => rows.reduce((total, row) => total + Number(row[column]), 0);

/** a journal entry read back from its journal.csv row, as the README says to */
function entryOfRow(row: Record<string, string>): JournalEntry {
  return {
    seq: Number(row.seq), at: row.at ?? '', kind: row.kind ?? '', ref: row.ref ?? '',
    ...(row.amount !== '' && { amount: { amount: Number(row.amount), currency: row.currency ?? '' } }),
    data: JSON.parse(row.data ?? '{}') as JournalEntry['data'], prevHash: row.prev_hash ?? '', hash: row.hash ?? '',
  };
}

describe('the export of a shift', () => {
  it('zips every journal entry of a closed shift with its hash, the Z report\'s totals and a README', async () => {
    const before = await sell(1, cash()); // no shift open: in no shift's export
    const shift = await openShift(engine, eur(10_000), 'Ana, "front desk"');
    const kept = await sell(2, cash(eur(10_000)));
    const byCard = await sell(1, card());
    const refunded = await sell(1, cash());
    expect((await engine.request<{ data: Order }>('POST', `/orders/${refunded.id}/cancel`)).status).toBe(200);
    await moveCash(engine, shift.id, 'payIn', eur(2_000), 'change, from the safe');
    await moveCash(engine, shift.id, 'payOut', eur(500), '=taxi "band"');
    const closed = await closeShift(engine, shift.id, eur(19_250), 'coins\nshort');
    await sell(1, card()); // after the close: in no shift's export
    const report = await reportOf(engine, shift.id);

    const answer = await downloadExport(engine, shift.id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="kassa-shift-${shift.number}.zip"`);
    const files = unzipText(answer.bytes);
    expect(Object.keys(files).sort()).toEqual(['README.txt', 'cancellations.csv', 'cash_movements.csv', 'events.csv', 'journal.csv', 'orders.csv', 'payments.csv', 'shift.csv']);

    // every entry of the shift, nothing else, each with its hash — recomputed from the CSV row alone
    const ofShift = (await journalEntries(engine)).filter((entry) => entry.data.shiftId === shift.id);
    expect(ofShift.map((entry) => entry.kind)).toEqual(['shiftOpened', 'order', 'order', 'order', 'cancellation', 'payIn', 'payOut', 'shiftClosed']);
    const journal = records(files['journal.csv'] ?? '');
    expect(journal.map(entryOfRow)).toEqual(ofShift);
    for (const row of journal) expect(recomputedHash(entryOfRow(row))).toBe(row.hash);
    expect(journal.some((row) => row.ref === before.id)).toBe(false);

    const [row] = records(files['shift.csv'] ?? '');
    expect(row).toMatchObject({
      shift_id: shift.id, number: String(shift.number), status: 'closed', report: 'Z', z_number: String(closed.zNumber), staff: 'Ana, "front desk"', currency: 'EUR',
      opening_float: '10000', orders_count: '3', orders_total: String(report.orders.total.amount), cancellations_count: '1',
      cancellations_total: String(report.cancellations.total.amount), cash_sales: String(report.cash.sales.amount), cash_refunds: String(report.cash.refunds.amount),
      pay_ins: '2000', pay_outs: '500', expected: String(report.cash.expected.amount), counted: '19250', difference: String(closed.difference?.amount),
      note: 'coins\nshort', first_seq: String(ofShift[0]?.seq), last_seq: String(ofShift.at(-1)?.seq), last_hash: ofShift.at(-1)?.hash,
    });

    const orders = records(files['orders.csv'] ?? '');
    expect(orders.map((order) => order.order_id)).toEqual([kept.id, byCard.id, refunded.id]);
    expect(sum(orders, 'base_total')).toBe(report.orders.total.amount);
    expect(orders[0]).toMatchObject({ total: String(kept.total.amount), currency: 'EUR', tickets: '2', payments: `cash=${kept.total.amount} EUR` });
    const cancellations = records(files['cancellations.csv'] ?? '');
    expect(cancellations).toEqual([expect.objectContaining({ order_id: refunded.id, amount: String(refunded.total.amount), refunds: `cash=${refunded.total.amount} EUR` })]);
    expect(sum(cancellations, 'base_total')).toBe(report.cancellations.total.amount);
    expect(records(files['cash_movements.csv'] ?? '').map((movement) => [movement.kind, movement.amount, movement.reason])).toEqual([
      ['payIn', '2000', 'change, from the safe'],
      ['payOut', '500', '=taxi "band"'],
    ]);
    expect(records(files['payments.csv'] ?? '')).toEqual(report.byMethod.map((method) => ({ method: method.method, currency: method.currency, count: String(method.count), total: String(method.total.amount) })));
    expect(sum(records(files['events.csv'] ?? ''), 'total')).toBe(report.orders.total.amount);

    const readme = files['README.txt'] ?? '';
    for (const [name, content] of Object.entries(files)) {
      if (name === 'README.txt') continue;
      for (const column of parseCsv(content)[0] ?? []) expect(readme, `${name}: ${column}`).toMatch(new RegExp(`^  ${column}: `, 'm'));
    }
    for (const words of ['UTF-8', 'RFC 4180', 'minor units', 'DSFinV-K', 'NF525', 'BSI', 'INFOCERT']) expect(readme).toContain(words);

    // a closed shift exports to the same bytes every time
    expect((await downloadExport(engine, shift.id)).bytes).toEqual(answer.bytes);
  });

  it('exports an open shift as an X export with the figures so far', async () => {
    const shift = await openShift(engine, eur(5_000));
    const order = await sell(1, cash());
    const files = unzipText((await downloadExport(engine, shift.id)).bytes);
    expect(records(files['shift.csv'] ?? '')[0]).toMatchObject({ status: 'open', report: 'X', z_number: '', counted: '', orders_count: '1', cash_sales: String(order.total.amount) });
    expect(records(files['journal.csv'] ?? '').map((row) => row.kind)).toEqual(['shiftOpened', 'order']);
    expect(files['README.txt']).toContain('X export');
    await closeShift(engine, shift.id, eur(5_000 + order.total.amount));
  });

  it('needs the admin scope: 403 for an orders key; 404 for an unknown shift, in the envelope', async () => {
    const shift = (await engine.request<{ data: { id: string }[] }>('GET', '/shifts')).body.data[0];
    if (!shift) throw new Error('no shift');
    const writer = await engine.createKey(['orders:read', 'orders:write']);
    for (const key of [engine.keys.ordersRead, writer]) {
      const denied = await engine.request('GET', `/shifts/${shift.id}/export`, { key });
      expectError(denied, 403, 'INSUFFICIENT_PERMISSIONS');
    }
    expectError(await engine.request('GET', '/shifts/shf_nothing/export'), 404, 'RESOURCE_NOT_FOUND', 'shiftId');
  });
});
