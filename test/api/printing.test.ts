import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart, giftCard, seat } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { decodeEscPos, slipsOf, textOf, type EscPosEvent } from '../helpers/escpos-decode';
import { startFakePrinter, type FakePrinter } from '../helpers/fake-printer';
import { card, cash, checkout, eur, expectError, orderOf, placeOrder, type Order } from '../helpers/orders';
import { print, printers, waitForJob } from '../helpers/printing';
import type { SignedOrder } from '../helpers/ticket-signing';

/**
 * POST /orders/{id}/print and GET /print-jobs against a fake ESC/POS printer on 127.0.0.1 (contract §12):
 * what reaches the printer is decoded — codes as text and QR, a cut per slip, the receipt's total, the
 * drawer kick on the first receipt of a cash sale only.
 */

const kinds = (events: readonly EscPosEvent[], kind: EscPosEvent['kind']) => events.filter((event) => event.kind === kind);

async function cashSale(engine: TestEngine, headers: Record<string, string> = {}): Promise<Order> {
  const cart = await createCart(engine, [concert(2)]);
  const response = await engine.request('POST', '/orders', {
    body: { cartId: cart.id, expectedTotal: cart.total, payment: cash(eur(10_000)) },
    headers: { 'idempotency-key': crypto.randomUUID(), ...headers },
  });
  return orderOf(response);
}

describe('printing an order on an ESC/POS network printer', () => {
  let printer: FakePrinter;
  let engine: TestEngine;
  beforeAll(async () => {
    printer = await startFakePrinter();
    engine = await startTestEngine({ printers: [printer.url], printTimeZone: 'Europe/Berlin' });
  });
  afterAll(async () => {
    await engine.close();
    await printer.close();
  });

  it('queues the job (202), prints tickets and receipt once, and reports it done', async () => {
    const order = await cashSale(engine);
    const before = printer.jobs.length;
    const { status, job } = await print(engine, order.id);
    expect(status).toBe(202);
    expect(job).toMatchObject({ orderId: order.id, what: 'all', printer: printer.url, language: 'en', openDrawer: true, attempts: 0 });
    expect(['queued', 'printing', 'done']).toContain(job.state);
    expect(job.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    const done = await waitForJob(engine, job.id, (current) => current.state === 'done');
    expect(done.attempts).toBe(1);
    expect(done.printedAt).toBeDefined();
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const events = decodeEscPos(bytes ?? Buffer.alloc(0));
    const slips = slipsOf(events).filter((slip) => slip.some((event) => event.kind === 'cut'));
    expect(slips).toHaveLength(order.tickets.length + 1);
    const read = await engine.request<{ data: SignedOrder }>('GET', `/orders/${order.id}`);
    const signed = new Map(read.body.data.tickets.map((ticket) => [ticket.id, ticket.signedCode]));
    for (const [index, ticket] of order.tickets.entries()) {
      const slip = slips[index] ?? [];
      expect(textOf(slip)).toContain(ticket.code);
      expect(textOf(slip)).toContain('Brass');
      // the QR encodes the ticket's signed code (issue #26); its code is printed as text
      const signedCode = signed.get(ticket.id);
      expect(signedCode).toMatch(/^K1\./);
      expect(kinds(slip, 'qr')).toEqual([{ kind: 'qr', data: signedCode }]);
    }
    const receipt = textOf(slips.at(-1) ?? []);
    expect(receipt).toMatch(/Total\s+€78\.00/);
    expect(receipt).toMatch(/Change\s+€22\.00/);
    expect(kinds(events, 'pulse')).toHaveLength(1);
  });

  it('reprints on request without opening the drawer again', async () => {
    const order = await cashSale(engine);
    const first = await print(engine, order.id, { what: 'receipt' });
    expect(first.job.openDrawer).toBe(true);
    await waitForJob(engine, first.job.id, (job) => job.state === 'done');
    const before = printer.jobs.length;
    const again = await print(engine, order.id, { what: 'receipt' });
    expect(again.status).toBe(202);
    expect(again.job.openDrawer).toBe(false);
    await waitForJob(engine, again.job.id, (job) => job.state === 'done');
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    expect(kinds(decodeEscPos(bytes ?? Buffer.alloc(0)), 'pulse')).toEqual([]);
  });

  it('never kicks the drawer for a card sale', async () => {
    const cart = await createCart(engine, [seat('C3')]);
    const order = await placeOrder(engine, cart.id, cart.total, card());
    const before = printer.jobs.length;
    const { job } = await print(engine, order.id);
    expect(job.openDrawer).toBe(false);
    await waitForJob(engine, job.id, (current) => current.state === 'done');
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const events = decodeEscPos(bytes ?? Buffer.alloc(0));
    expect(kinds(events, 'pulse')).toEqual([]);
    expect(textOf(events)).toContain('Seat: ');
    expect(textOf(events)).toMatch(/Paid by card/);
  });

  it('prints a gift card with its code as text and QR', async () => {
    const cart = await createCart(engine, [giftCard('gift-50')]);
    const order = await placeOrder(engine, cart.id, cart.total, card());
    const before = printer.jobs.length;
    const { job } = await print(engine, order.id, { what: 'tickets' });
    await waitForJob(engine, job.id, (current) => current.state === 'done');
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const events = decodeEscPos(bytes ?? Buffer.alloc(0));
    const code = order.giftCards[0]?.code ?? '';
    expect(kinds(events, 'qr')).toEqual([{ kind: 'qr', data: code }]);
    expect(textOf(events)).toContain(code);
    expect(kinds(events, 'cut')).toHaveLength(1);
  });

  it('prints each gift-card part of a split sale: the code masked to its last 4, the amount taken and the balance left then', async () => {
    const bought = await placeOrder(engine, (await createCart(engine, [giftCard('gift-100')])).id, eur(10_000), cash());
    const code = bought.giftCards[0]?.code ?? '';
    const cart = await createCart(engine, [concert(2)]); // 7800
    const order = orderOf(await checkout(engine, cart.id, cart.total, { method: 'cash', tendered: eur(3000), giftCards: [{ code, amount: eur(5000) }] }));
    // a later spend does not change what this receipt says was left
    const later = await createCart(engine, [concert(1)]);
    orderOf(await checkout(engine, later.id, later.total, { method: 'giftCard', giftCards: [{ code }] }));
    const before = printer.jobs.length;
    const { job } = await print(engine, order.id, { what: 'receipt' });
    await waitForJob(engine, job.id, (current) => current.state === 'done');
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const receipt = textOf(decodeEscPos(bytes ?? Buffer.alloc(0)));
    expect(receipt).toMatch(new RegExp(`Gift card \\*\\*\\*\\*${code.slice(-4)}\\s+€50\\.00`));
    expect(receipt).toMatch(/Balance left\s+€50\.00/);
    expect(receipt).toMatch(/Paid in cash\s+€28\.00/);
    expect(receipt).toMatch(/Change\s+€2\.00/);
    expect(receipt).not.toContain(code);
  });

  it('prints in the language of the checkout, whoever asks later; a request may name another', async () => {
    const order = await cashSale(engine, { 'accept-language': 'de-DE,de;q=0.9' });
    const { job } = await print(engine, order.id, { what: 'receipt' }, { 'accept-language': 'fr' });
    expect(job.language).toBe('de');
    const before = printer.jobs.length;
    await waitForJob(engine, job.id, (current) => current.state === 'done');
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    expect(textOf(decodeEscPos(bytes ?? Buffer.alloc(0)))).toMatch(/Summe\s+78,00 €/);
    const french = await print(engine, order.id, { what: 'receipt', language: 'fr' });
    expect(french.job.language).toBe('fr');
    await waitForJob(engine, french.job.id, (current) => current.state === 'done');
  });

  it('prints the catalog names in the language of the sale: German lines, event and area on a German sale', async () => {
    const order = await cashSale(engine, { 'accept-language': 'de' });
    const before = printer.jobs.length;
    const { job } = await print(engine, order.id, { what: 'all' }, { 'accept-language': 'en' });
    await waitForJob(engine, job.id, (current) => current.state === 'done');
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const slips = slipsOf(decodeEscPos(bytes ?? Buffer.alloc(0))).filter((slip) => slip.some((event) => event.kind === 'cut'));
    const ticket = textOf(slips[0] ?? []);
    expect(ticket).toMatch(/Midnight Brass — live im\s+Konzert/); // the title wraps on 80 mm
    expect(ticket).toContain('Stehplatz — Erwachsene');
    expect(ticket).toContain('Bereich: Stehplatz');
    expect(ticket).not.toContain('Standing');
    const receipt = textOf(slips.at(-1) ?? []);
    expect(receipt).toMatch(/2 . Stehplatz . Erwachsene\s+78,00 €/);
    expect(receipt).not.toContain('Standing');
  });

  it('with ifNotPrinted answers the existing job (200) instead of printing twice', async () => {
    const order = await cashSale(engine);
    const first = await print(engine, order.id, { ifNotPrinted: true });
    expect(first.status).toBe(202);
    const second = await print(engine, order.id, { ifNotPrinted: true });
    expect(second.status).toBe(200);
    expect(second.job.id).toBe(first.job.id);
    await waitForJob(engine, first.job.id, (job) => job.state === 'done');
    const list = await engine.request<{ data: { id: string }[] }>('GET', `/print-jobs?orderId=${order.id}`, { key: engine.keys.ordersRead });
    expect(list.status).toBe(200);
    expect(list.body.data.map((job) => job.id)).toEqual([first.job.id]);
  });

  it('lists jobs newest first, filtered by state, and the printer as ready', async () => {
    const list = await engine.request<{ data: { id: string; state: string }[] }>('GET', '/print-jobs?state=done&limit=2', { key: engine.keys.ordersRead });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.every((job) => job.state === 'done')).toBe(true);
    expect(await printers(engine)).toEqual([{ id: printer.url, kind: 'escpos', state: 'ready', queued: 0 }]);
  });

  it('answers errors in the envelope', async () => {
    const order = await cashSale(engine);
    expectError(await engine.request('POST', '/orders/ord_unknown/print', { body: {} }), 404, 'RESOURCE_NOT_FOUND', 'orderId');
    expectError(await engine.request('POST', `/orders/${order.id}/print`, { body: { what: 'everything' } }), 400, 'INVALID_FIELD_VALUE');
    expectError(await engine.request('POST', `/orders/${order.id}/print`, { body: { printer: 'tcp://10.0.0.9:9100' } }), 400, 'INVALID_FIELD_VALUE', 'printer');
    expectError(await engine.request('POST', `/orders/${order.id}/print`, { body: {}, key: engine.keys.ordersRead }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await engine.request('GET', '/print-jobs', { key: engine.keys.carts }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await engine.request('GET', '/print-jobs/prj_unknown'), 404, 'RESOURCE_NOT_FOUND', 'jobId');
    expectError(await engine.request('GET', '/print-jobs?limit=0'), 400, 'INVALID_FIELD_VALUE');
    expect((await engine.request('POST', `/orders/${order.id}/cancel`)).status).toBe(200);
    expectError(await engine.request('POST', `/orders/${order.id}/print`, { body: {} }), 409, 'ORDER_NOT_PRINTABLE');
    expectError(await engine.request('GET', `/orders/${order.id}/tickets.pdf`), 409, 'ORDER_NOT_PRINTABLE');
  });

  it('prints with no body at all', async () => {
    const order = await cashSale(engine);
    const response = await engine.request<{ data: { id: string } }>('POST', `/orders/${order.id}/print`);
    expect(response.status).toBe(202);
    await waitForJob(engine, response.body.data.id, (job) => job.state === 'done');
  });
});

describe('an engine without a printer', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('answers 409 PRINTER_NOT_CONFIGURED and lists no printers', async () => {
    const cart = await createCart(engine, [concert(1)]);
    const order = orderOf(await checkout(engine, cart.id, cart.total));
    expectError(await engine.request('POST', `/orders/${order.id}/print`, { body: {} }), 409, 'PRINTER_NOT_CONFIGURED');
    expect(await printers(engine)).toEqual([]);
  });
});

describe('a printer that is down, then back (shipped backoff: 2 s, 4 s, … 30 s)', () => {
  let printer: FakePrinter;
  let engine: TestEngine;
  beforeAll(async () => {
    printer = await startFakePrinter();
    await printer.off();
    engine = await startTestEngine({ printers: [printer.url] });
  });
  afterAll(async () => {
    await engine.close();
    await printer.close();
  });

  it('keeps the job queued with the reason, shows the printer down, and prints it once when it is back', async () => {
    const order = await cashSale(engine);
    const { job } = await print(engine, order.id);
    const waiting = await waitForJob(engine, job.id, (current) => current.reason !== undefined, 10_000);
    expect(waiting.state).toBe('queued');
    expect(waiting.reason).toMatch(/refused/);
    const [status] = await printers(engine);
    expect(status).toMatchObject({ id: printer.url, state: 'down', queued: 1 });
    expect(status?.reason).toMatch(/refused/);

    // the shipped-default test of the retry: a second attempt, 2 s after the first, fails too
    await waitForJob(engine, job.id, (current) => current.attempts >= 2, 10_000);
    await printer.on();
    const done = await waitForJob(engine, job.id, (current) => current.state === 'done', 35_000);
    expect(done.reason).toBeUndefined();
    // printed once: another order's tickets go through after it, and the printer has the two jobs, nothing more
    const next = await cashSale(engine);
    await waitForJob(engine, (await print(engine, next.id)).job.id, (current) => current.state === 'done');
    expect(printer.jobs).toHaveLength(2);
    expect(kinds(decodeEscPos(printer.jobs[0] ?? Buffer.alloc(0)), 'qr')).toHaveLength(order.tickets.length);
    expect((await printers(engine))[0]).toMatchObject({ state: 'ready', queued: 0 });
  }, 60_000);
});

describe('a printer that stalls (accepts, never reads: paper out, cover open)', () => {
  let printer: FakePrinter;
  let engine: TestEngine;
  beforeAll(async () => {
    printer = await startFakePrinter();
    printer.mode = 'stall';
    engine = await startTestEngine({ printers: [printer.url], printTuning: { probeIntervalMs: 0 } });
  });
  afterAll(async () => {
    await engine.close();
    await printer.close();
  });

  it('fails the job after the shipped 15 s write timeout, says why, and never sends it again on its own', async () => {
    const order = await cashSale(engine);
    const { job } = await print(engine, order.id);
    const failed = await waitForJob(engine, job.id, (current) => current.state === 'failed', 25_000);
    expect(failed.reason).toMatch(/stalled/);
    expect(failed.reason).toMatch(/reprint/);
    expect(failed.attempts).toBe(1);
    // never again on its own: with the printer reading again, another order's job prints, and it is the only
    // connection since the stalled one (probes are off here)
    printer.mode = 'print';
    const next = await cashSale(engine);
    await waitForJob(engine, (await print(engine, next.id)).job.id, (current) => current.state === 'done');
    expect(printer.connections).toBe(2);
    expect(printer.jobs).toHaveLength(1);
  }, 40_000);
});
