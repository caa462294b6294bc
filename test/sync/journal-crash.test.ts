import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/db';
import { createKeyRepo } from '../../engine/store/key-repo';
import { startTestEngine } from '../helpers/engine';
import { startFaultProxy } from '../helpers/fault-proxy';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';
import { SYNC_SCOPES, allOrders, catalogFile, httpApi, importedOrders, sellMany, waitUntil, type Order } from './harness';
import { cancel, closeShift, expectOrdersAtHub, expectSameJournal, hubJournal, onlyTerminal, openShift, payIn, terminalJournal, waitForJournalSynced } from './journal-helpers';

/**
 * The terminal — `serve` as a real child process — killed with SIGKILL the instant the hub's answer to a journal
 * request reaches the proxy (the hub stored the entries; the terminal never hears), three times, restarted each
 * time: the journal still ends at the hub exactly once, the same chain, and at every kill the hub holds no entry
 * whose order it does not hold.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dead(proc: ServeProcess): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) await once(proc.child, 'exit');
}

describe("a terminal killed while its journal goes to the hub", () => {
  it('ends with every entry at the hub exactly once after three SIGKILLs at a journal answer', async () => {
    const catalog = catalogFile();
    cleanups.push(catalog.remove);
    // batches of 5 orders: the journal follows the imports in several steps
    const hub = await startTestEngine({ catalogFile: catalog.path, demo: false, allocations: false, capabilities: { importBatch: 5 } });
    cleanups.push(() => hub.close());
    const syncKey = await hub.createKey(SYNC_SCOPES);
    const proxy = await startFaultProxy({ target: hub.url, seed: 2511, down: true });
    cleanups.push(() => proxy.close());

    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-journal-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const keyDb = openDatabase(dataDir);
    const adminKey = createKeyRepo(keyDb).create('till', ['admin']).key;
    keyDb.close();
    const args = ['--data', dataDir, '--no-demo', '--rate-limit', '0', '--log-level', 'warn', '--upstream', proxy.url, '--sync-retry-ms', '20', '--sync-pull-seconds', '1', '--offline-sales'];
    const env = { KASSA_UPSTREAM_KEY: syncKey };
    let current: ServeProcess = await startServe([...args, '--catalog', catalog.path], undefined, env);
    cleanups.push(async () => {
      await kill(current, 'SIGKILL');
    });

    // offline: a shift of sales, a cancellation, a pay-in and the close; a second shift with more sales
    const api = httpApi(current.url, adminKey);
    const first = await openShift(api);
    const orders: Order[] = await sellMany(api, 15, 0, { seats: false });
    const cancelled = orders.slice(0, 1).map((order) => order.id);
    for (const id of cancelled) await cancel(api, id);
    await payIn(api, first.id, 500);
    await closeShift(api, first.id, 50_000);
    await openShift(api);
    orders.push(...(await sellMany(api, 10, 15, { seats: false })));
    const entries = terminalJournal(dataDir).length;

    proxy.setDown(false);
    for (let round = 0; round < 3; round++) {
      const proc = current;
      proxy.onEvent((event) => {
        if (event.route === 'POST /hub/journal' && event.status === 200) {
          proc.child.kill('SIGKILL'); // the hub stored them; the answer is never relayed
          proxy.onEvent(undefined);
        }
      });
      await waitUntil(() => proc.child.signalCode !== null || proc.child.killed, 30_000, `round ${round}: a journal answer`);
      await dead(proc);
      expect(proc.child.signalCode).toBe('SIGKILL');

      // what the hub holds is a prefix of the terminal's journal, and no entry of it is ahead of its order
      const held = await hubJournal(hub, onlyTerminal(hub));
      expect(held.length, `round ${round}`).toBeGreaterThan(0);
      expect(held).toEqual(terminalJournal(dataDir).slice(0, held.length));
      const atHub = new Set(importedOrders(await allOrders(hub)).map((order) => order.payment.reference));
      const ahead = held.filter((entry) => entry.kind === 'order' && !atHub.has(entry.ref) && !cancelled.includes(entry.ref));
      expect(ahead, `round ${round}: entries ahead of their orders`).toEqual([]);

      current = await startServe(args, undefined, env);
    }

    const status = await waitForJournalSynced(httpApi(current.url, adminKey), 60_000);
    expect(status.journal).toMatchObject({ waiting: 0, confirmedSeq: entries, refused: null });
    await expectSameJournal(hub, onlyTerminal(hub), dataDir);
    await expectOrdersAtHub(hub, orders, cancelled);
    expect(proxy.counters.upstreamStatus['POST /hub/journal 409'] ?? 0).toBe(0);
  }, 180_000);
});
