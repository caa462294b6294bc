import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../engine/contract/order';
import type { PrintJob, Printer } from '../../engine/contract/printing';
import { decodeEscPos, type EscPosEvent } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';
import { CONCERT_DATE, kioskCardSale } from './kiosk-sale';

/**
 * Printing in the browser (contract §12), with the engine started with `printers: [tcp://127.0.0.1:PORT]`
 * pointing at a fake ESC/POS printer: the kiosk prints after every sale without being asked; the box
 * office prints on F9, shows the queue and reprints; the header shows a printer that is down.
 */

const kinds = (bytes: Buffer | undefined, kind: EscPosEvent['kind']) => decodeEscPos(bytes ?? Buffer.alloc(0)).filter((event) => event.kind === kind);

async function orderIdOnScreen(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { name: /^Order confirmed/ });
  await heading.waitFor({ timeout: 15_000 });
  const id = /\bord_[A-Za-z0-9_-]+/.exec((await heading.textContent()) ?? '')?.[0];
  expect(id).toBeDefined();
  return id ?? '';
}

async function jobsOf(ui: UiHarness, orderId: string): Promise<PrintJob[]> {
  const response = await ui.engine.request<{ data: PrintJob[] }>('GET', `/print-jobs?orderId=${orderId}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

async function holdTwoAdults(page: Page): Promise<void> {
  await page.getByRole('button', { name: CONCERT_DATE, exact: true }).click();
  const standing = page.getByRole('region', { name: 'Standing', exact: true });
  await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
  await standing.getByRole('button', { name: 'One more Adult', exact: true }).click();
  await page.getByRole('button', { name: 'Hold tickets', exact: true }).click();
  await page.getByRole('timer').first().waitFor();
}

describe('printing from the UI to an ESC/POS printer', () => {
  let ui: UiHarness;
  let printer: FakePrinter;
  beforeAll(async () => {
    printer = await startFakePrinter();
    ui = await startUi({ printers: [printer.url] });
  });
  afterAll(async () => {
    await ui.close();
    await printer.close();
  });

  it('kiosk: prints tickets and receipt after the sale without being asked, and says so', async () => {
    const page = await ui.open('kiosk', 'mode=kiosk&idle=300');
    const before = printer.jobs.length;
    await kioskCardSale(page);
    const orderId = await orderIdOnScreen(page);

    await page.getByRole('status').filter({ hasText: 'Tickets printed. Please take them from the printer.' }).waitFor({ timeout: 15_000 });
    const jobs = await jobsOf(ui, orderId);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ state: 'done', what: 'all', openDrawer: false, attempts: 1 });
    const order = (await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`)).body.data;
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    expect(kinds(bytes, 'qr')).toEqual(order.tickets.map((ticket) => ({ kind: 'qr', data: ticket.signedCode ?? ticket.code })));
    expect(kinds(bytes, 'cut')).toHaveLength(order.tickets.length + 1);
    // no browser print dialog on an unattended kiosk
    expect(await page.getByRole('button', { name: 'Print receipt' }).count()).toBe(0);
    await screenshot(page, 'printing-kiosk-printed');
    await expectAccessible(page, 'kiosk confirmation, printed');

    // A reload of the confirmation (the desktop app reloads a crashed renderer) never prints the sale again:
    // the reloaded kiosk serves the next customer, whose job reaches the same printer only after every job
    // queued before it (one queue per printer, oldest first) — and the printer got one job per sale, no more.
    await page.reload();
    await page.getByRole('button', { name: 'Touch to start' }).waitFor();
    await kioskCardSale(page);
    const nextId = await orderIdOnScreen(page);
    expect(nextId).not.toBe(orderId);
    await page.getByRole('status').filter({ hasText: 'Tickets printed. Please take them from the printer.' }).waitFor({ timeout: 15_000 });
    const next = (await ui.engine.request<{ data: Order }>('GET', `/orders/${nextId}`)).body.data;
    const [nextBytes] = (await printer.waitForJobs(before + 2)).slice(before + 1);
    expect(kinds(nextBytes, 'qr')).toEqual(next.tickets.map((ticket) => ({ kind: 'qr', data: ticket.signedCode ?? ticket.code })));
    expect(printer.jobs).toHaveLength(before + 2);
    expect(await jobsOf(ui, orderId)).toHaveLength(1);
    expect(await jobsOf(ui, nextId)).toHaveLength(1);
  });

  it('box office: F9 prints (cash opens the drawer), F9 again reprints, the queue shows the job and reprints it', async () => {
    const page = await ui.open('boxOffice');
    await holdTwoAdults(page);
    await page.getByRole('button', { name: 'Pay cash', exact: true }).click();
    await page.getByRole('group', { name: 'Quick cash' }).getByRole('button', { name: '€100.00', exact: true }).click();
    await page.getByRole('button', { name: 'Take payment', exact: true }).click();
    const orderId = await orderIdOnScreen(page);
    expect(await jobsOf(ui, orderId)).toEqual([]); // the box office prints when asked

    const before = printer.jobs.length;
    await page.keyboard.press('F9');
    await page.getByRole('status').filter({ hasText: /^Printed$/ }).waitFor({ timeout: 15_000 });
    const [first] = await jobsOf(ui, orderId);
    expect(first).toMatchObject({ state: 'done', openDrawer: true });
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    expect(kinds(bytes, 'pulse')).toHaveLength(1);
    await screenshot(page, 'printing-box-office-printed');
    await expectAccessible(page, 'box office confirmation, printed');

    // F9 again reprints: a new job, the same tickets, and the drawer stays shut.
    await page.keyboard.press('F9');
    await expect.poll(async () => (await jobsOf(ui, orderId)).map((job) => job.state), { timeout: 15_000 }).toEqual(['done', 'done']);
    const [keyed] = await jobsOf(ui, orderId);
    expect(keyed).toMatchObject({ openDrawer: false });
    const [keyedBytes] = (await printer.waitForJobs(before + 2)).slice(before + 1);
    expect(kinds(keyedBytes, 'qr')).toEqual(kinds(bytes, 'qr'));
    expect(kinds(keyedBytes, 'pulse')).toEqual([]);

    await page.getByRole('button', { name: 'New sale', exact: true }).click();
    await page.getByRole('button', { name: 'Print queue', exact: true }).click();
    await page.getByRole('heading', { name: 'Print queue' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: first?.code ?? '?' });
    await row.getByText('Done').waitFor();
    await expectAccessible(page, 'print queue');
    await screenshot(page, 'printing-box-office-queue');
    await row.getByRole('button', { name: `Reprint ${first?.code ?? '?'}` }).click();

    await expect.poll(async () => (await jobsOf(ui, orderId)).map((job) => job.state), { timeout: 15_000 }).toEqual(['done', 'done', 'done']);
    const [reprint] = await jobsOf(ui, orderId);
    expect(reprint).toMatchObject({ what: 'all', openDrawer: false });
    const [again] = (await printer.waitForJobs(before + 3)).slice(before + 2);
    expect(kinds(again, 'qr')).toEqual(kinds(bytes, 'qr'));
    expect(kinds(again, 'pulse')).toEqual([]);
  });

  it('header: a printer that is down shows, and clears once a job got through', async () => {
    const page = await ui.open('boxOffice');
    await holdTwoAdults(page);
    await page.getByRole('button', { name: 'Pay cash', exact: true }).click();
    await page.getByRole('button', { name: 'Take payment', exact: true }).click();
    const orderId = await orderIdOnScreen(page);
    await printer.off();
    await page.keyboard.press('F9');
    const alert = page.getByRole('alert').filter({ hasText: /^Not printed yet, trying again: the printer refused the connection/ });
    await alert.waitFor({ timeout: 15_000 });
    const down = page.getByRole('banner').getByText(`Printer down: ${printer.url}`);
    await down.waitFor({ timeout: 10_000 });
    const status = await ui.engine.request<{ data: Printer[] }>('GET', '/printers');
    expect(status.body.data[0]).toMatchObject({ state: 'down', queued: 1 });
    await screenshot(page, 'printing-header-printer-down');

    await printer.on();
    await page.getByRole('status').filter({ hasText: /^Printed$/ }).waitFor({ timeout: 40_000 });
    await down.waitFor({ state: 'detached', timeout: 10_000 });
    expect((await jobsOf(ui, orderId)).map((job) => job.state)).toEqual(['done']);
  }, 90_000);

  it('kiosk: when the printer is down, tells the customer where to get the tickets and gives the code to show staff', async () => {
    await printer.off();
    const page = await ui.open('kiosk', 'mode=kiosk&idle=300');
    await kioskCardSale(page);
    const orderId = await orderIdOnScreen(page);
    const alert = page.getByRole('alert').filter({ hasText: 'Your tickets are not printed: the printer has a problem.' });
    await alert.waitFor({ timeout: 15_000 });
    const [job] = await jobsOf(ui, orderId);
    expect(job).toMatchObject({ state: 'queued' });
    const told = (await alert.innerText()).replace(/\s+/g, ' ').trim();
    expect(told).toContain(`Please show your order number ${orderId} at the box office to get your tickets.`);
    expect(told).toContain(`Code for staff: ${job?.code ?? '?'}`);
    await screenshot(page, 'printing-kiosk-printer-down');
    await expectAccessible(page, 'kiosk confirmation, printer down');
    await printer.on();
    await page.getByRole('status').filter({ hasText: 'Tickets printed. Please take them from the printer.' }).waitFor({ timeout: 40_000 });
  }, 90_000);
});
