import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { catalogFile, FAST, FEST, sell, SYNC_SCOPES, waitForSynced, type Order } from './harness';

/**
 * Key rotation at a hub (issue #22): orders a terminal imports belong to its sync key's owner. A venue that
 * replaces the key (`npm run keys -- replace ID`: a leaked key, a routine rotation) keeps that owner, so the
 * till still cancels the sales it made under the old key, and the hub puts their places back on sale; an import
 * on its way gets its order back and the till keeps its allocations. A key replaced the wrong way (a new key from
 * `keys create`) still cannot cancel, but its conflict says why. The keys are made and replaced by the real CLI
 * on the hub's data directory while the hub runs.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const keysCli = async (...args: string[]): Promise<string> =>
  (await run(process.execPath, ['--import', 'tsx', 'engine/cli/keys.ts', ...args], { cwd: ROOT })).stdout;
const lastLine = (stdout: string): string => stdout.trimEnd().split('\n').at(-1) ?? '';
const keyIdOf = (stdout: string): string => /^created (key_\w+)/.exec(stdout)?.[1] ?? '';

const FIELD_ADULT = { occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId: FEST.field.adult, quantity: 1 };

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A hub without allocations (a plain stock count) and a till's engine on one data folder, started with a given sync key. */
async function hubAndTill(): Promise<{ hub: TestEngine; till: (key: string) => Promise<TestEngine> }> {
  const file = catalogFile();
  closers.push(file.remove);
  const hub = await startTestEngine({ catalogFile: file.path, demo: false, allocations: false });
  closers.push(() => hub.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-rotation-till-'));
  closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const till = (key: string): Promise<TestEngine> =>
    startTestEngine({ catalogFile: file.path, demo: false, offlineSales: true, dataDir, upstream: { url: hub.url, key, pullIntervalMs: 60_000, ...FAST } });
  return { hub, till };
}

it("after the terminal's sync key is replaced, its cancellation of an earlier sale reaches the hub", { timeout: 60_000 }, async () => {
  const { hub, till } = await hubAndTill();
  const created = await keysCli('create', '--data', hub.dataDir, '--name', 'till-1', '--scopes', SYNC_SCOPES.join(','));

  let terminal = await till(lastLine(created));
  const sale: Order = await sell(terminal, 1);
  await waitForSynced(terminal, 15_000);
  const hubOrder = (await hub.request<{ data: Order[] }>('GET', '/orders')).body.data.find((o) => o.payment.reference === sale.id);
  expect(hubOrder?.status).toBe('confirmed');
  await terminal.close();

  // the venue replaces the till's key: a new key of the same owner, the old one revoked
  const replaced = await keysCli('replace', keyIdOf(created), '--data', hub.dataDir);
  expect(replaced).toContain(`revoked ${keyIdOf(created)}`);
  const oldKeyAnswer = await fetch(`${hub.url}/api/v3/orders`, { headers: { 'x-svc-api-key': lastLine(created) } });
  expect(oldKeyAnswer.status).toBe(401);
  terminal = await till(lastLine(replaced));
  closers.push(() => terminal.close());

  const cancelled = await terminal.request<{ data: Order }>('POST', `/orders/${sale.id}/cancel`);
  expect(cancelled.status).toBe(200);
  const status = await waitForSynced(terminal, 15_000);
  expect(status.conflicts).toEqual([]);
  // the customer was refunded at the till; the hub put the places back
  const after = await hub.request<{ data: Order }>('GET', `/orders/${hubOrder?.id}`);
  expect(after.body.data.status).toBe('cancelled');
});

it('an import on its way when the key was replaced: the new key sending the same reference gets its order back, not a conflict', { timeout: 60_000 }, async () => {
  const file = catalogFile();
  closers.push(file.remove);
  const hub = await startTestEngine({ catalogFile: file.path, demo: false, allocations: false });
  closers.push(() => hub.close());
  const created = await keysCli('create', '--data', hub.dataDir, '--name', 'till-2', '--scopes', SYNC_SCOPES.join(','), '--owner', 'till-2');
  const other = await hub.createKey(SYNC_SCOPES);
  const reference = `ord_${crypto.randomUUID()}`;
  const body = { orders: [{ idempotencyKey: crypto.randomUUID(), reference, items: [FIELD_ADULT], expectedTotal: { amount: FEST.prices.adult, currency: 'EUR' } }] };
  const send = (key: string) => hub.request<{ data: { results: { status: number; replayed?: boolean; order?: Order; error?: { code: string } }[] } }>('POST', '/orders/import', { key, body });

  const first = (await send(lastLine(created))).body.data.results[0];
  expect(first?.status).toBe(201);
  const replaced = await keysCli('replace', keyIdOf(created), '--data', hub.dataDir);
  expect(replaced).toContain('owner till-2');
  const again = (await send(lastLine(replaced))).body.data.results[0];
  expect(again).toMatchObject({ status: 201, replayed: true, order: { id: first?.order?.id } });
  // another terminal's key still may not take it
  expect((await send(other)).body.data.results[0]).toMatchObject({ status: 409, error: { code: 'IMPORT_REFERENCE_TAKEN' } });
});

it("a replaced key keeps the terminal's allocations at the hub", { timeout: 60_000 }, async () => {
  const file = catalogFile();
  closers.push(file.remove);
  const hub = await startTestEngine({ catalogFile: file.path, demo: false });
  closers.push(() => hub.close());
  const created = await keysCli('create', '--data', hub.dataDir, '--name', 'till-3', '--scopes', SYNC_SCOPES.join(','));
  const changes = [{ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, change: 10 }];
  type Held = { data: { terminalId: string; allocations: { inventoryItemId: string; quantity: number }[] } };
  const granted = await hub.request<Held>('POST', '/allocations', { key: lastLine(created), headers: { 'idempotency-key': crypto.randomUUID() }, body: { changes } });
  expect(granted.status).toBe(200);

  const replaced = await keysCli('replace', keyIdOf(created), '--data', hub.dataDir);
  const held = await hub.request<Held>('GET', '/allocations', { key: lastLine(replaced) });
  expect(held.body.data).toMatchObject({ terminalId: keyIdOf(created), allocations: [{ inventoryItemId: FEST.field.inventoryItemId, quantity: 10 }] });
  // a cart the new key makes takes from them first
  const cart = await hub.request('POST', '/carts', { key: lastLine(replaced), body: { items: [{ ...FIELD_ADULT, quantity: 2 }] } });
  expect(cart.status).toBe(201);
  const after = await hub.request<Held>('GET', '/allocations', { key: lastLine(replaced) });
  expect(after.body.data.allocations).toMatchObject([{ quantity: 8 }]);
});

it("a key replaced the wrong way (a new key made by keys create): the till's cancel lands in its inbox saying what happened and what to do", { timeout: 60_000 }, async () => {
  const { hub, till } = await hubAndTill();

  let terminal = await till(await hub.createKey(SYNC_SCOPES));
  const sale: Order = await sell(terminal, 1);
  await waitForSynced(terminal, 15_000);
  await terminal.close();
  terminal = await till(await hub.createKey(SYNC_SCOPES));
  closers.push(() => terminal.close());
  expect((await terminal.request('POST', `/orders/${sale.id}/cancel`)).status).toBe(200);

  const status = await waitForSynced(terminal, 15_000);
  expect(status.conflicts).toEqual([expect.objectContaining({ kind: 'cancel', orderId: sale.id, code: 'RESOURCE_NOT_FOUND' })]);
  expect(status.conflicts[0]?.message).toMatch(/sync key replaced with 'keys create' instead of 'keys replace'.*Cancel the order at the upstream/);
});
