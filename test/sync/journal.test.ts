import { afterEach, describe, expect, it } from 'vitest';
import { expectArrivedExactlyOnce, importedOrders, allOrders, sellMany, startPair, syncStatus, waitUntil, type Order, type SyncPair } from './harness';
import {
  cancel,
  closeShift,
  expectOrdersAtHub,
  expectSameJournal,
  hubJournal,
  journalStatus,
  onlyTerminal,
  openShift,
  payIn,
  report,
  terminalJournal,
  waitForJournalSynced,
} from './journal-helpers';

/**
 * A terminal's journal reaches its hub with the orders (contract §14): every entry exactly once, in seq order, never
 * ahead of the order it records, through lost answers and a line that is down; the hub lists the terminal's shifts
 * with their Z reports. Fast retry steps (20 ms) except where a test says otherwise.
 */

const pairs: SyncPair[] = [];
afterEach(async () => {
  await Promise.all(pairs.splice(0).map((pair) => pair.close()));
});

async function pair(options: Partial<Parameters<typeof startPair>[0]> = {}): Promise<SyncPair> {
  const started = await startPair({ proxy: { seed: 25 }, ...options });
  pairs.push(started);
  return started;
}

/** A shift on the terminal: opened, `sales` sales (cash and card), one cancelled, a pay-in, closed with a count. */
async function shiftOfSales(kiosk: SyncPair['kiosk'], sales: number, from = 0): Promise<{ shiftId: string; orders: Order[]; cancelled: string[] }> {
  const shift = await openShift(kiosk);
  const orders = await sellMany(kiosk, sales, from, { seats: false });
  const [first] = orders;
  if (first) await cancel(kiosk, first.id);
  await payIn(kiosk, shift.id, 500);
  await closeShift(kiosk, shift.id, 12_345);
  return { shiftId: shift.id, orders, cancelled: first ? [first.id] : [] };
}

describe("a terminal's journal at its hub", () => {
  it('sales, a cancellation and a closed shift arrive exactly once with the same hashes; ?terminal= lists the shift with its Z report', async () => {
    const { upstream, kiosk, proxy } = await pair();
    const { shiftId, orders } = await shiftOfSales(kiosk, 8);

    const status = await waitForJournalSynced(kiosk, 30_000);
    expect(status.journal).toMatchObject({ waiting: 0, accepted: true, refused: null });
    const local = terminalJournal(kiosk.dataDir);
    expect(status.journal.confirmedSeq).toBe(local.length);
    // the journal records what was done: the opening, every sale, the cancellation, the pay-in, the close
    expect(local.map((entry) => entry.kind)).toEqual(['shiftOpened', ...orders.map(() => 'order'), 'cancellation', 'payIn', 'shiftClosed']);

    const terminal = onlyTerminal(upstream);
    const copy = await expectSameJournal(upstream, terminal, kiosk.dataDir);
    expect(copy).toHaveLength(local.length);
    // the orders themselves arrived too, each once
    await expectOrdersAtHub(upstream, orders, orders.slice(0, 1).map((order) => order.id));
    // nothing was refused on the way
    expect(proxy.counters.upstreamStatus['POST /hub/journal 409'] ?? 0).toBe(0);

    const zReport = await report(kiosk, shiftId);
    const listed = await upstream.request<{ data: Record<string, unknown>[] }>('GET', `/shifts?terminal=${terminal}`);
    expect(listed.status).toBe(200);
    const [shift] = listed.body.data;
    expect(listed.body.data).toHaveLength(1);
    const kioskShift = (await kiosk.request<{ data: Record<string, unknown> }>('GET', `/shifts/${shiftId}`)).body.data;
    expect(shift).toEqual({ ...kioskShift, terminal, report: zReport });
    expect(shift).toMatchObject({ status: 'closed', zNumber: 1, counted: { amount: 12_345, currency: 'EUR' } });
    expect((await upstream.request<{ data: unknown[] }>('GET', '/shifts?terminal=all')).body.data).toEqual([shift]);
    // the hub's own shifts are its own: none
    expect((await upstream.request<{ data: unknown[] }>('GET', '/shifts')).body.data).toEqual([]);
  }, 60_000);

  it('sends no entry ahead of its order: while the orders cannot reach the hub, their entries wait', async () => {
    const { upstream, kiosk, proxy } = await pair();
    // the orders' delivery (an import, or the checkout of the cart the terminal held upstream while online) fails
    proxy.setRates({ serviceUnavailable: 1 }, { method: 'POST', path: /^\/api\/v3\/orders(\/import)?$/ });
    const refusedDeliveries = () => (proxy.counters.byRoute['serviceUnavailable POST /orders/import'] ?? 0) + (proxy.counters.byRoute['serviceUnavailable POST /orders'] ?? 0);
    const shift = await openShift(kiosk);
    const orders = await sellMany(kiosk, 3, 0, { seats: false });
    await payIn(kiosk, shift.id, 500);

    // the opening goes; the sales (and the pay-in behind them) wait for their orders
    await waitUntil(async () => (await journalStatus(kiosk)).journal.confirmedSeq === 1, 20_000, 'the shift opening at the hub');
    await waitUntil(() => refusedDeliveries() >= 3, 20_000, `refused deliveries (${JSON.stringify(proxy.counters)})`);
    const waiting = await journalStatus(kiosk);
    expect(waiting.journal).toMatchObject({ waiting: 4, confirmedSeq: 1 });
    const terminal = onlyTerminal(upstream);
    expect((await hubJournal(upstream, terminal)).map((entry) => entry.kind)).toEqual(['shiftOpened']);
    expect(importedOrders(await allOrders(upstream))).toEqual([]);

    proxy.heal();
    await waitForJournalSynced(kiosk, 30_000);
    await expectSameJournal(upstream, terminal, kiosk.dataDir);
    await expectArrivedExactlyOnce(upstream, orders);
  }, 60_000);

  it('through lost answers, 503s and 429s: no entry twice, none skipped', async () => {
    const { upstream, kiosk, proxy } = await pair({
      proxy: { seed: 2025, rates: { loseAfterForward: 0.3, serviceUnavailable: 0.2, tooMany: 0.1 }, scope: { method: 'POST', path: /^\/api\/v3\/hub\/journal$/ } },
    });
    // the first journal request's answer is lost for sure (the hub stored the entries; the terminal never heard)
    let lostFirst = false;
    proxy.onEvent((event) => {
      if (event.route === 'POST /hub/journal' && event.kind === 'lost' && event.status === 200) lostFirst = true;
    });
    const orders: Order[] = [];
    const cancelled: string[] = [];
    for (let wave = 0; wave < 4; wave++) {
      const requests = proxy.events.filter((event) => event.route === 'POST /hub/journal').length;
      const shift = await shiftOfSales(kiosk, 3, wave * 3);
      orders.push(...shift.orders);
      cancelled.push(...shift.cancelled);
      await waitUntil(() => proxy.events.filter((event) => event.route === 'POST /hub/journal').length > requests, 20_000, `wave ${wave}'s journal`);
    }
    await waitForJournalSynced(kiosk, 60_000);
    const terminal = onlyTerminal(upstream);
    const copy = await expectSameJournal(upstream, terminal, kiosk.dataDir);
    expect(copy.filter((entry) => entry.kind === 'shiftClosed')).toHaveLength(4);
    await expectOrdersAtHub(upstream, orders, cancelled);
    expect(lostFirst).toBe(true);
    // answers were lost after the hub stored the entries, and the repeats stored nothing twice
    expect(proxy.events.filter((event) => event.route === 'POST /hub/journal' && event.kind === 'lost' && event.status === 200).length).toBeGreaterThan(0);
    expect(proxy.counters.upstreamStatus['POST /hub/journal 409'] ?? 0).toBe(0);
    const shifts = (await upstream.request<{ data: { status: string; zNumber: number }[] }>('GET', `/shifts?terminal=${terminal}`)).body.data;
    expect(shifts.map((shift) => shift.zNumber)).toEqual([4, 3, 2, 1]);
  }, 90_000);

  it('offline: the terminal sells and closes its shift; back online, everything arrives in order', async () => {
    const { upstream, kiosk, proxy } = await pair({ proxy: { seed: 7, down: true } });
    const { orders, cancelled } = await shiftOfSales(kiosk, 6);
    const second = await openShift(kiosk);
    orders.push(...(await sellMany(kiosk, 2, 6, { seats: false })));

    const local = terminalJournal(kiosk.dataDir);
    await waitUntil(async () => (await syncStatus(kiosk)).online === false, 20_000, 'the terminal to be offline');
    const offline = await journalStatus(kiosk);
    expect(offline.journal).toMatchObject({ waiting: local.length, confirmedSeq: 0 });
    expect(offline.waiting).toBeGreaterThan(0);

    proxy.setDown(false);
    await waitForJournalSynced(kiosk, 60_000);
    const terminal = onlyTerminal(upstream);
    await expectSameJournal(upstream, terminal, kiosk.dataDir);
    await expectOrdersAtHub(upstream, orders, cancelled);
    // in order: the hub never had to refuse a gap
    expect(proxy.counters.upstreamStatus['POST /hub/journal 409'] ?? 0).toBe(0);
    const shifts = (await upstream.request<{ data: { id: string; status: string }[] }>('GET', `/shifts?terminal=${terminal}`)).body.data;
    expect(shifts.map((shift) => [shift.id === second.id, shift.status])).toEqual([[true, 'open'], [false, 'closed']]);
  }, 90_000);

  it('to a plain v3 upstream nothing is sent: the status says the upstream takes no journal and what waits', async () => {
    const { kiosk, proxy } = await pair({ kind: 'v3' });
    await openShift(kiosk);
    const orders = await sellMany(kiosk, 2, 0, { seats: false });
    const status = await waitForJournalSyncedOrders(kiosk);
    expect(status.journal).toMatchObject({ accepted: false, waiting: 1 + orders.length, confirmedSeq: 0, refused: null });
    expect(proxy.events.filter((event) => event.path.endsWith('/hub/journal'))).toEqual([]);
  }, 60_000);
});

describe('the journal at the shipped default retry step (1 s)', () => {
  it('a lost answer is sent again a second later and stored once', async () => {
    const { upstream, kiosk, proxy } = await pair({ proxy: { seed: 11 }, sync: { retryBaseMs: 1000, pollMs: 1000, pullIntervalMs: 60_000 } });
    proxy.setRates({ loseAfterForward: 1 }, { method: 'POST', path: /^\/api\/v3\/hub\/journal$/ });
    proxy.onEvent((event) => {
      if (event.kind === 'lost') proxy.heal();
    });
    await waitUntil(async () => (await journalStatus(kiosk)).journal.accepted === true, 20_000, 'the hub to be known');
    const shift = await openShift(kiosk);
    await closeShift(kiosk, shift.id, 10_000);
    await waitForJournalSynced(kiosk, 20_000);
    const sent = proxy.events.filter((event) => event.route === 'POST /hub/journal');
    // (the opening and the close go in one request, or the close in a request of its own after them)
    expect(sent.map((event) => [event.kind, event.status])).toEqual([['lost', 200], ...sent.slice(1).map(() => ['relayed', 200])]);
    const [lost, again] = sent;
    // the first retry step of spec §7.4: 1 s ± 20 %
    expect((again?.receivedAt ?? 0) - (lost?.at ?? 0)).toBeGreaterThanOrEqual(750);
    expect((again?.receivedAt ?? 0) - (lost?.at ?? 0)).toBeLessThan(3000);
    await expectSameJournal(upstream, onlyTerminal(upstream), kiosk.dataDir);
  }, 60_000);
});

/** A plain v3 upstream: the outbox drains, the journal stays (nothing takes it). */
async function waitForJournalSyncedOrders(kiosk: SyncPair['kiosk']) {
  await waitUntil(async () => {
    const status = await journalStatus(kiosk);
    return status.waiting === 0 && status.journal.accepted === false;
  }, 30_000, 'the outbox to drain to the plain upstream');
  return journalStatus(kiosk);
}
