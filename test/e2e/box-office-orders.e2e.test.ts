import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../engine/contract/order';
import type { PrintJob } from '../../engine/contract/printing';
import { decodeEscPos } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * The box office's orders screen (issue #22): today's sales read a page at a time with the engine's totals per
 * currency, and a looked-up order reprinted through the print queue or downloaded as its tickets PDF.
 */

interface Money {
  amount: number;
  currency: string;
}

/** What the UI shows for an amount: en-GB, the currency's own scale (the engine sends minor units). */
function shown(money: Money): string {
  const scale = new Intl.NumberFormat('en', { style: 'currency', currency: money.currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency: money.currency, minimumFractionDigits: scale, maximumFractionDigits: scale }).format(money.amount / 10 ** scale);
}

/** A sale placed over the API, as another till would; answers the order. */
async function sell(ui: UiHarness, items: object[], payment: object, currency?: string): Promise<Order> {
  const cart = await ui.engine.request<{ data: { id: string; total: Money } }>('POST', '/carts', { body: { items, ...(currency && { currency }) } });
  expect(cart.status, JSON.stringify(cart.body)).toBe(201);
  const placed = await ui.engine.request<{ data: Order }>('POST', '/orders', {
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return placed.body.data;
}

const GIFT_CARD = { occurrenceId: 'gift-card', inventoryItemId: 'gift-card', priceOptionId: 'gift-50', quantity: 1 };
const ADULT = { occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 };

async function openOrders(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Orders', exact: true }).click();
  await page.getByRole('heading', { name: "Today's sales" }).waitFor();
}

describe('today’s sales: every page of the day, totals per currency (#22)', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('reads the day a page at a time and shows the engine’s totals, one row per currency', { timeout: 60_000 }, async () => {
    // 55 gift cards of €50.00 (one cancelled) and one adult in yen: more than a page of 50.
    const sold: Order[] = [];
    for (let i = 0; i < 55; i += 1) sold.push(await sell(ui, [GIFT_CARD], { method: 'cash' }));
    const yen = await sell(ui, [ADULT], { method: 'card', token: 'tok_visa' }, 'JPY');
    expect(yen.total).toEqual({ amount: 6332, currency: 'JPY' }); // €39.00 × 162.35 = ¥6,331.65
    const cancelled = sold[3]?.id ?? '';
    expect((await ui.engine.request('POST', `/orders/${cancelled}/cancel`)).status).toBe(200);

    const page = await ui.open('boxOffice');
    await openOrders(page);
    const totals = page.getByRole('region', { name: "Today's totals by currency" });
    const rowOf = (currency: string) => totals.getByRole('row').filter({ has: page.getByRole('cell', { name: currency, exact: true }) });
    // EUR: 55 orders, 55 × €50.00 = €2,750.00, one cancelled (€50.00), €2,700.00 stays sold.
    await expect.poll(() => rowOf('EUR').innerText()).toBe(['EUR', '55', shown({ amount: 275000, currency: 'EUR' }), `1 · ${shown({ amount: 5000, currency: 'EUR' })}`, shown({ amount: 270000, currency: 'EUR' })].join('\t'));
    expect(await rowOf('JPY').innerText()).toBe(['JPY', '1', shown(yen.total), `0 · ${shown({ amount: 0, currency: 'JPY' })}`, shown(yen.total)].join('\t'));
    // The engine's own figures, the same.
    const summary = await ui.engine.request<{ data: { currencies: { currency: string; net: Money }[] } }>('GET', `/orders/summary?from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(summary.body.data.currencies.map((row) => row.net)).toEqual([{ amount: 270000, currency: 'EUR' }, { amount: 6332, currency: 'JPY' }]);

    const list = page.locator('table.today-list');
    const orderRows = list.locator('tbody tr');
    await expect.poll(() => orderRows.count()).toBe(50);
    await screenshot(page, 'box-office-22-todays-totals');
    await expectAccessible(page, "today's sales with totals");
    await page.getByRole('button', { name: 'Show more sales' }).click();
    await expect.poll(() => orderRows.count()).toBe(56);
    await page.getByText('All of today’s sales are shown.').waitFor();
    expect(await page.getByRole('button', { name: 'Show more sales' }).count()).toBe(0);
    // The oldest sale is at the end, once; the cancelled one says so.
    expect(await list.getByRole('button', { name: sold[0]?.id ?? '' }).count()).toBe(1);
    expect(await list.getByRole('row').filter({ has: page.getByRole('button', { name: cancelled }) }).innerText()).toContain('Cancelled');

    // A cancellation from this screen updates the engine's totals at once.
    await list.getByRole('button', { name: sold[10]?.id ?? '' }).click();
    await page.getByRole('button', { name: 'Cancel order and refund' }).click();
    await page.getByRole('dialog').getByRole('button', { name: /^Cancel and refund/ }).click();
    await expect.poll(() => rowOf('EUR').innerText()).toContain(`2 · ${shown({ amount: 10000, currency: 'EUR' })}`);
  });
});

describe('a looked-up order: reprint through the print queue, tickets PDF (#22)', () => {
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

  it('reprints tickets and receipt of an order found by its id, and downloads its tickets PDF', async () => {
    const order = await sell(ui, [{ ...ADULT, quantity: 2 }], { method: 'cash' });
    const page = await ui.open('boxOffice');
    await openOrders(page);
    await page.getByRole('searchbox', { name: 'Order id or ticket code' }).fill(order.id);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Order ${order.id}` }).waitFor();

    const before = printer.jobs.length;
    await page.getByRole('button', { name: 'Reprint tickets and receipt (F9)' }).click();
    await page.getByRole('status').filter({ hasText: /^Printed$/ }).waitFor({ timeout: 15_000 });
    const jobs = await ui.engine.request<{ data: PrintJob[] }>('GET', `/print-jobs?orderId=${order.id}`);
    expect(jobs.body.data).toHaveLength(1);
    expect(jobs.body.data[0]).toMatchObject({ what: 'all', state: 'done' });
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const qr = decodeEscPos(bytes ?? Buffer.alloc(0)).filter((event) => event.kind === 'qr');
    expect(qr).toEqual(order.tickets.map((ticket) => ({ kind: 'qr', data: ticket.signedCode ?? ticket.code })));
    await screenshot(page, 'box-office-23-lookup-reprint');
    await expectAccessible(page, 'looked-up order, reprinted');

    // F9 reprints too, from the looked-up order.
    await page.keyboard.press('F9');
    await expect.poll(async () => (await ui.engine.request<{ data: PrintJob[] }>('GET', `/print-jobs?orderId=${order.id}`)).body.data.length).toBe(2);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Tickets PDF (A4)' }).click()]);
    expect(download.suggestedFilename()).toBe(`tickets-${order.id}-a4.pdf`);
    const path = await download.path();
    expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('says what to do when the printer cannot be reached', { timeout: 60_000 }, async () => {
    const order = await sell(ui, [ADULT], { method: 'cash' });
    const page = await ui.open('boxOffice');
    await openOrders(page);
    await page.getByRole('searchbox', { name: 'Order id or ticket code' }).fill(order.id);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Order ${order.id}` }).waitFor();
    await printer.off();
    try {
      await page.keyboard.press('F9');
      await page.getByRole('alert').filter({ hasText: /^Not printed yet, trying again: the printer refused the connection/ }).waitFor({ timeout: 15_000 });
      await page.getByText('Reprint once the printer is ready (F9, or the Print queue), or download the tickets PDF below.').waitFor();
      await page.getByRole('button', { name: 'Tickets PDF (A4)' }).waitFor();
    } finally {
      await printer.on();
    }
    await page.getByRole('status').filter({ hasText: /^Printed$/ }).waitFor({ timeout: 40_000 });
    expect(await page.getByText(/^Reprint once the printer is ready/).count()).toBe(0);
  });

  it('offers no reprint for a cancelled order', async () => {
    const order = await sell(ui, [ADULT], { method: 'cash' });
    expect((await ui.engine.request('POST', `/orders/${order.id}/cancel`)).status).toBe(200);
    const page = await ui.open('boxOffice');
    await openOrders(page);
    await page.getByRole('searchbox', { name: 'Order id or ticket code' }).fill(order.id);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Order ${order.id}` }).waitFor();
    expect(await page.getByRole('button', { name: /^Reprint/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Tickets PDF/ }).count()).toBe(0);
  });
});
