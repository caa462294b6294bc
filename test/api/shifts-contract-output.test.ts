import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintJob } from '../../engine/contract/printing';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { decodeEscPos, textOf } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { card, cash, eur, expectError } from '../helpers/orders';
import { waitForJob } from '../helpers/printing';
import { closeShift, move, openShift, sell, type Shift } from '../helpers/shifts-contract';
import { readJournal } from '../helpers/journal-contract';

/**
 * Contract §14 "POST /api/v3/shifts/{id}/print prints it (§12)" — 202 with the job, on the receipt printer, the
 * X report of an open shift and the Z report of a closed one — and the shared design's export
 * (`GET /shifts/{id}/export`, admin): a zip of CSV files named after the shift's number.
 */

let engine: TestEngine;
let printer: FakePrinter;
let shift: Shift;

beforeAll(async () => {
  printer = await startFakePrinter();
  engine = await startTestEngine({ printers: [printer.url] });
  shift = await openShift(engine, eur(10000));
  await sell(engine, cash());
  await sell(engine, card());
  await move(engine, shift.id, 'payOut', eur(1234), 'window cleaner');
});
afterAll(async () => {
  await engine.close();
  await printer.close();
});

async function printShift(id: string): Promise<string> {
  const response = await engine.request<{ data: PrintJob }>('POST', `/shifts/${id}/print`, { body: {} });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  const job = response.body.data;
  expect(['queued', 'printing', 'done']).toContain(job.state);
  await waitForJob(engine, job.id, (current) => current.state === 'done');
  const jobs = await printer.waitForJobs(printer.jobs.length);
  return textOf(decodeEscPos(jobs.at(-1) ?? Buffer.alloc(0)));
}

describe('§14 POST /shifts/{id}/print', () => {
  it('an open shift: 202 with the job; the printer gets its X report with the pay-out', async () => {
    const before = printer.jobs.length;
    const text = await printShift(shift.id);
    expect(printer.jobs.length).toBe(before + 1);
    expect(text).toMatch(/X report/);
    expect(text).toMatch(/12[.,]34/);
  });

  it('a closed shift: its Z report, with the z number and the counted cash; the job ends with a cut', async () => {
    await closeShift(engine, shift.id, eur(13333));
    const text = await printShift(shift.id);
    expect(text).toMatch(/Z report/);
    expect(text).toMatch(/133[.,]33/);
    const events = decodeEscPos(printer.jobs.at(-1) ?? Buffer.alloc(0));
    // one cut, and nothing but blank feed after it (the encoder's trailing newline)
    expect(events.filter((event) => event.kind === 'cut')).toHaveLength(1);
    expect(events.filter((event) => event.kind !== 'text' || event.text.trim() !== '').at(-1)?.kind).toBe('cut');
  });

  it('an unknown shift: 404 RESOURCE_NOT_FOUND', async () => {
    expectError(await engine.request('POST', '/shifts/shf_unknown/print', { body: {} }), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('GET /shifts/{id}/export (the shared design; scope admin)', () => {
  it('answers a zip named kassa-shift-<number>.zip holding the README and the CSV files; journal.csv has every entry of the shift', async () => {
    const response = await fetch(`${engine.url}/api/v3/shifts/${shift.id}/export`, { headers: { 'x-svc-api-key': engine.keys.admin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/zip/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="kassa-shift-${shift.number}.zip"`);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(['README.txt', 'cancellations.csv', 'cash_movements.csv', 'events.csv', 'journal.csv', 'orders.csv', 'payments.csv', 'shift.csv'].sort());
    const ofShift = (await readJournal(engine)).filter((entry) => entry.data.shiftId === shift.id);
    const journal = strFromU8(files['journal.csv'] ?? new Uint8Array()).trim().split(/\r?\n/);
    expect(journal).toHaveLength(ofShift.length + 1); // a header line and one row per entry
    for (const entry of ofShift) expect(journal.some((line) => line.includes(entry.hash)), entry.hash).toBe(true);
  });

  it('an unknown shift: 404 in the JSON envelope', async () => {
    expectError(await engine.request('GET', '/shifts/shf_unknown/export'), 404, 'RESOURCE_NOT_FOUND');
  });
});
