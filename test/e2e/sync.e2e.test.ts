import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/** The box office's view of sync: Online/Offline with the orders waiting, and the conflict inbox. */

const fast = { retryBaseMs: 50, pollMs: 50, pullIntervalMs: 3_600_000 };

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function sellOneStanding(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Friday, 12 March 2027 at 20:30' }).click();
  await page.getByRole('region', { name: 'Standing' }).getByRole('button', { name: 'One more Adult' }).click();
  await page.getByRole('button', { name: 'Hold tickets' }).click();
  await page.getByRole('timer').waitFor();
  await page.getByRole('button', { name: 'Pay cash' }).click();
  await page.getByRole('button', { name: 'Take payment' }).click();
  await page.getByRole('heading', { name: /Order confirmed/ }).waitFor();
}

describe('sync in the box office', () => {
  const open: (UiHarness | TestEngine)[] = [];
  afterAll(async () => {
    for (const item of open.reverse()) await item.close();
  });

  it('shows Offline and the orders waiting while the upstream cannot be reached', { timeout: 60_000 }, async () => {
    // An upstream never reached: the till sells offline only because it was told it may (--offline-sales).
    const ui = await startUi({ offlineSales: true, upstream: { url: `http://127.0.0.1:${await closedPort()}`, key: 'kassa_unused', ...fast } });
    open.push(ui);
    const page = await ui.open('boxOffice');
    await sellOneStanding(page);
    const header = page.getByRole('banner');
    await expect.poll(() => header.getByText('Offline', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => header.getByText('1 order waiting to sync').count(), { timeout: 15_000 }).toBe(1);
    await screenshot(page, 'box-office-offline-waiting');
  });

  it('lists an order the upstream refused in the conflict inbox until staff resolve it', { timeout: 60_000 }, async () => {
    const upstream = await startTestEngine();
    open.push(upstream);
    const key = await upstream.createKey(['catalog:read', 'carts:write', 'orders:write', 'orders:import']);
    const ui = await startUi({ upstream: { url: upstream.url, key, ...fast } });
    open.push(ui);
    const page = await ui.open('boxOffice');
    await expect.poll(() => page.getByRole('banner').getByText('Online', { exact: true }).count(), { timeout: 15_000 }).toBe(1);

    // The till holds places of the hub (asked once the hub has its ticket keys, issue #26) before the show goes off sale.
    const holdsPlaces = async (): Promise<boolean> => {
      const status = await ui.engine.request<{ data: { holdings: { inHand: number }[] } }>('GET', '/sync/status');
      return status.body.data.holdings.some((row) => row.inHand > 0);
    };
    await expect.poll(holdsPlaces, { timeout: 15_000 }).toBe(true);
    // Upstream takes the concert off sale after the terminal pulled its catalog: the sale is refused there.
    const doc = demoCatalog();
    const concert = doc.events.find((event) => event.id === 'midnight-brass')?.occurrences.find((occurrence) => occurrence.id === 'brass-2027-03-12');
    if (!concert) throw new Error('demo concert missing');
    concert.onSale = false;
    expect((await upstream.request('PUT', '/catalog', { body: doc })).status).toBe(200);

    await sellOneStanding(page);
    const orderId = (await page.locator('.order-id').textContent()) ?? '';
    await page.getByRole('button', { name: 'New sale' }).click();
    const inboxButton = page.getByRole('button', { name: 'Sync conflicts (1)' });
    await inboxButton.waitFor({ timeout: 15_000 });
    await inboxButton.click();
    const item = page.getByRole('listitem', { name: `Order ${orderId}` });
    await item.waitFor();
    expect(await item.getByText('Refused upstream: OCCURRENCE_NOT_AVAILABLE').count()).toBe(1);
    await screenshot(page, 'box-office-sync-conflicts');
    await expectAccessible(page, 'sync conflict inbox');

    // The local order stands; staff mark the conflict resolved with a note.
    expect((await ui.engine.request<{ data: { status: string } }>('GET', `/orders/${orderId}`)).body.data.status).toBe('confirmed');
    await item.getByLabel('Resolution note').fill('Refunded at the desk; upstream date closed.');
    await item.getByRole('button', { name: 'Mark resolved' }).click();
    await page.getByText('No conflicts: every order reached the upstream or waits to.').waitFor();
    const status = await ui.engine.request<{ data: { conflicts: unknown[]; waiting: number } }>('GET', '/sync/status');
    expect([status.body.data.conflicts, status.body.data.waiting]).toEqual([[], 0]);
  });
});

describe('the sync backlog in the box office', () => {
  const open: (UiHarness | TestEngine | FaultProxy)[] = [];
  afterAll(async () => {
    for (const item of open.reverse()) await item.close();
  });

  async function sellStanding(engine: TestEngine, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const items = [{ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 }];
      const cart = await engine.request<{ data: { id: string; total: unknown } }>('POST', '/carts', { body: { items } });
      const placed = await engine.request('POST', '/orders', {
        body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } },
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      expect(placed.status).toBe(201);
    }
  }

  it('warns when the oldest waiting order is older than 15 minutes, and shows a progress bar while the backlog drains', { timeout: 120_000 }, async () => {
    // A hub that takes one order per import, behind a line where 30 % of answers are 429 (Retry-After: 1):
    // a backlog of 30 drains over several seconds, long enough for the header (it looks every 5 s) to show it.
    // About the backlog, not allocations: a hub that grants none, and a till that sells offline.
    const hub = await startTestEngine({ capabilities: { importBatch: 1 }, allocations: false });
    open.push(hub);
    const proxy = await startFaultProxy({ target: hub.url, seed: 30, down: true });
    open.push(proxy);
    const key = await hub.createKey(['catalog:read', 'carts:write', 'orders:write', 'orders:import']);
    let shift = 0;
    const ui = await startUi({ now: () => Date.now() + shift, offlineSales: true, upstream: { url: proxy.url, key, ...fast } });
    open.push(ui);
    const page = await ui.open('boxOffice');
    const header = page.getByRole('banner');

    await sellStanding(ui.engine, 30);
    await expect.poll(() => header.getByText('30 orders waiting to sync').count(), { timeout: 15_000 }).toBe(1);
    expect(await header.getByRole('alert').count()).toBe(0);

    // Sixteen minutes later, still offline: the warning.
    shift = 16 * 60_000;
    const stale = header.getByRole('alert').filter({ hasText: 'Orders have waited 16 minutes to sync' });
    await stale.waitFor({ timeout: 15_000 });
    await screenshot(page, 'box-office-sync-stale');
    await expectAccessible(page, 'sync backlog warning');

    // The line comes back, flaky: the backlog drains with a progress bar and an estimate.
    proxy.setRates({ tooMany: 0.3 });
    proxy.setDown(false);
    const bar = header.getByRole('progressbar', { name: 'Orders syncing' });
    await bar.waitFor({ timeout: 30_000 });
    expect(Number(await bar.getAttribute('max'))).toBe(30);
    expect(await header.getByText(/of 30 sent · about .+ left/).count()).toBe(1);
    await screenshot(page, 'box-office-sync-draining');

    // Drained: the bar and the warning are gone.
    await expect.poll(() => header.getByText('0 orders waiting to sync').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => bar.count(), { timeout: 10_000 }).toBe(0);
    expect(await stale.count()).toBe(0);
  });

  it('shows an error when the upstream refuses the sync key, and logs it without the key', { timeout: 60_000 }, async () => {
    const hub = await startTestEngine();
    open.push(hub);
    const wrongKey = 'kassa_this_key_does_not_exist_upstream';
    const ui = await startUi({ upstream: { url: hub.url, key: wrongKey, ...fast } });
    open.push(ui);
    const page = await ui.open('boxOffice');
    const alert = page.getByRole('banner').getByRole('alert').filter({ hasText: 'The upstream refuses this terminal’s sync key' });
    await alert.waitFor({ timeout: 15_000 });
    // the connectivity line names the refused key, not "Online" (issue #22)
    const connectivity = page.getByRole('banner').locator('.connectivity');
    await expect.poll(() => connectivity.textContent(), { timeout: 10_000 }).toContain('Sync key refused');
    expect(await connectivity.textContent()).not.toContain('Online');
    await screenshot(page, 'box-office-sync-key-rejected');

    const status = await ui.engine.request<{ data: { keyRejected: boolean; online: boolean; lastError: string } }>('GET', '/sync/status');
    expect(status.body.data).toMatchObject({ keyRejected: true, online: false });
    expect(status.body.data.lastError).toContain('INVALID_API_KEY');
    const logs = ui.engine.logs();
    expect(logs).toContain('the upstream refuses the sync key');
    expect(logs).toContain('"level":50');
    expect(logs).not.toContain(wrongKey);
  });
});
