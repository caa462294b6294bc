import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintJob } from '../../engine/contract/printing';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { decodeEscPos, textOf, type EscPosEvent } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { card, cash, checkout, eur, expectError, orderOf, sleep } from '../helpers/orders';
import { jobOf, waitForJob } from '../helpers/printing';
import { closeShift, moveCash, openShift, reportOf } from '../helpers/shifts';

/**
 * POST /shifts/{id}/print (contract §14, §12), on both databases, at the print queue's shipped defaults: the X or Z
 * report reaches the fake ESC/POS printer with its figures, in the request's language, ending with a cut and
 * without a drawer kick; a job queued while the printer is down survives a restart of the engine and prints once.
 */

let printer: FakePrinter;
let engine: TestEngine;
beforeAll(async () => {
  printer = await startFakePrinter();
  engine = await startTestEngine({ printers: [printer.url] });
});
afterAll(async () => {
  await engine.close();
  await printer.close();
});

const sell = async (quantity: number, payment: Parameters<typeof checkout>[3]) => {
  const cart = await createCart(engine, [concert(quantity)]);
  return orderOf(await checkout(engine, cart.id, cart.total, payment));
};
const printShift = async (shiftId: string, language?: string, body?: object) => {
  const answer = await engine.request<{ data: PrintJob }>('POST', `/shifts/${shiftId}/print`, {
    ...(body !== undefined && { body }),
    headers: language === undefined ? {} : { 'accept-language': language },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body.data;
};
/** the text of a slip, and whether it ends with a cut (nothing but line feeds after it) and kicks no drawer */
const readSlip = (bytes: Buffer | undefined) => {
  const events: EscPosEvent[] = decodeEscPos(bytes ?? Buffer.alloc(0));
  const printed = events.filter((event) => event.kind !== 'text' || event.text.trim() !== '');
  return { text: textOf(events), endsWithCut: printed.at(-1)?.kind === 'cut', cuts: events.filter((event) => event.kind === 'cut').length, kicks: events.filter((event) => event.kind === 'pulse').length };
};

describe('printing a shift\'s report', () => {
  it('prints the Z report of a closed shift in the request\'s language: figures, expected/counted/difference, a cut, no drawer kick', async () => {
    const shift = await openShift(engine, eur(10_000), 'Ana');
    await sell(2, cash(eur(10_000)));
    await sell(1, card());
    await moveCash(engine, shift.id, 'payIn', eur(2_000), 'Wechselgeld');
    const closed = await closeShift(engine, shift.id, eur(19_750));
    const report = await reportOf(engine, shift.id);
    expect(report.cash.expected).toEqual(eur(19_800));

    const printed = printer.jobs.length;
    const job = await printShift(shift.id, 'de');
    expect(job).toMatchObject({ shiftId: shift.id, what: 'zReport', language: 'de', printer: printer.url, state: 'queued', openDrawer: false });
    expect(job.orderId).toBeUndefined();
    expect(await waitForJob(engine, job.id, (current) => current.state === 'done')).toMatchObject({ attempts: 1, printedAt: expect.any(String) as string });
    expect(printer.jobs).toHaveLength(printed + 1);
    const slip = readSlip(printer.jobs.at(-1));
    expect(slip.text).toContain('Z-Bericht');
    expect(slip.text).toContain(`Schicht ${shift.number} · Z-Nr. ${closed.zNumber}`);
    expect(slip.text).toContain('Personal: Ana');
    for (const line of [/Bestellungen \(2\)\s+117,00\s€/, /Bar \(1\)\s+78,00\s€/, /Karte \(1\)\s+39,00\s€/, /Anfangsbestand\s+100,00\s€/, /Barverkäufe\s+78,00\s€/,
      /Einlagen\s+20,00\s€/, /Soll\s+198,00\s€/, /Gezählt\s+197,50\s€/, /Differenz\s+-0,50\s€/]) expect(slip.text).toMatch(line);
    expect(slip).toMatchObject({ endsWithCut: true, cuts: 1, kicks: 0 });

    // listed with the shift's other jobs, and found by a box-office key
    const listed = await engine.request<{ data: PrintJob[] }>('GET', `/print-jobs?shiftId=${shift.id}`, { key: engine.keys.ordersRead });
    expect(listed.body.data.map((listedJob) => listedJob.id)).toEqual([job.id]);
  });

  it('prints an open shift\'s X report (English by default, French when asked)', async () => {
    const shift = await openShift(engine, eur(5_000));
    await sell(1, cash());
    const english = await printShift(shift.id);
    expect(english).toMatchObject({ what: 'xReport', language: 'en' });
    const french = await printShift(shift.id, 'de', { language: 'fr' });
    expect(french.language).toBe('fr');
    await waitForJob(engine, french.id, (current) => current.state === 'done');
    const [x, rapport] = printer.jobs.slice(-2).map(readSlip);
    expect(x?.text).toContain('X report');
    expect(x?.text).toMatch(/Expected\s+€89\.00/);
    expect(x?.text).toContain('Shift still open');
    expect(rapport?.text).toContain('Rapport X');
    expect(rapport?.text).toMatch(/Attendu\s+89,00\s€/);
    await closeShift(engine, shift.id, eur(8_900));
  });

  it('survives a restart of the engine while the printer is down, and prints once', async () => {
    const shift = await openShift(engine, eur(1_000));
    await closeShift(engine, shift.id, eur(1_000));
    await printer.off();
    const printed = printer.jobs.length;
    const job = await printShift(shift.id);
    const tried = await waitForJob(engine, job.id, (current) => current.reason !== undefined && current.state === 'queued', 10_000);
    // restarted while the printer is still down: the job is still there and tried again
    await engine.stop();
    await engine.start();
    await waitForJob(engine, job.id, (current) => current.attempts > tried.attempts && current.state === 'queued', 10_000);
    await printer.on();
    const done = await waitForJob(engine, job.id, (current) => current.state === 'done', 20_000);
    expect(printer.jobs).toHaveLength(printed + 1);
    expect(readSlip(printer.jobs.at(-1)).text).toContain('Z report');
    // done is done: another restart does not print it again
    await engine.stop();
    await engine.start();
    await sleep(1_500);
    expect(printer.jobs).toHaveLength(printed + 1);
    expect(await jobOf(engine, job.id)).toMatchObject({ state: 'done', attempts: done.attempts });
  }, 60_000);

  it('needs orders:write; 404 for an unknown shift; 400 for a printer not configured', async () => {
    const shift = (await engine.request<{ data: { id: string }[] }>('GET', '/shifts')).body.data[0];
    if (!shift) throw new Error('no shift');
    expectError(await engine.request('POST', `/shifts/${shift.id}/print`, { key: engine.keys.ordersRead }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await engine.request('POST', '/shifts/shf_nothing/print', { body: {} }), 404, 'RESOURCE_NOT_FOUND', 'shiftId');
    expectError(await engine.request('POST', `/shifts/${shift.id}/print`, { body: { printer: 'tcp://127.0.0.1:1' } }), 400, 'INVALID_FIELD_VALUE', 'printer');
    // a kiosk (orders:checkout) sees its own orders' jobs, never a shift's report
    const [report] = (await engine.request<{ data: PrintJob[] }>('GET', `/print-jobs?shiftId=${shift.id}`)).body.data;
    if (!report) throw new Error('no report job');
    const kiosk = await engine.createKey(['orders:checkout']);
    expectError(await engine.request('GET', `/print-jobs/${report.id}`, { key: kiosk }), 404, 'RESOURCE_NOT_FOUND', 'jobId');
    expect((await engine.request('GET', `/print-jobs/${report.id}`, { key: engine.keys.ordersRead })).status).toBe(200);
  });
});

describe('an engine without a printer', () => {
  it('answers 409 PRINTER_NOT_CONFIGURED', async () => {
    const bare = await startTestEngine();
    try {
      const shift = await openShift(bare, eur(0));
      expectError(await bare.request('POST', `/shifts/${shift.id}/print`), 409, 'PRINTER_NOT_CONFIGURED');
    } finally {
      await bare.close();
    }
  });
});
