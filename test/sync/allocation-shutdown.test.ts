import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOC } from '../fixtures/allocation-catalog';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';
import { hubStock, startHub } from './allocation-helpers';
import { SYNC_SCOPES, waitUntil } from './harness';

/**
 * Contract §10, a terminal's places after it stops, with `serve` as a real process at its defaults
 * (--allocation 10) and the hub's default lapse (6 hours, reached by moving the hub's clock):
 * SIGTERM gives the unsold places back within seconds; SIGKILL leaves them held until the allocation lapses.
 */

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const LAPSE_MS = 6 * 3600 * 1000;

async function hubAndTerminal() {
  let offset = 0;
  const { hub, catalogPath, remove } = await startHub({ floor: 50, seats: 2 }, { now: () => Date.now() + offset });
  cleanup.push(remove, () => hub.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-alloc-stop-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const key = await hub.createKey(SYNC_SCOPES);
  const till: ServeProcess = await startServe(['--data', dataDir, '--no-demo', '--catalog', catalogPath, '--log-level', 'warn', '--upstream', hub.url], undefined, { KASSA_UPSTREAM_KEY: key });
  cleanup.push(() => kill(till, 'SIGKILL'));
  const allocated = () => hubStock(hub.dataDir).find((row) => row.id === ALLOC.floor.inventoryItemId)?.allocated ?? -1;
  await waitUntil(() => allocated() === 10, 20_000, 'the terminal to hold its 10 places');
  const available = async () => {
    const answer = await hub.request<{ data: { areas: { inventoryItems: { id: string; available: number }[] }[] } }>('GET', `/occurrences/${ALLOC.occurrenceId}/inventory`);
    return answer.body.data.areas.flatMap((area) => area.inventoryItems).find((item) => item.id === ALLOC.floor.inventoryItemId)?.available;
  };
  return { hub, till, allocated, available, advance: (ms: number) => void (offset += ms) };
}

describe('a terminal that stops', () => {
  it('SIGTERM: its unsold places are back on sale at the hub within seconds', async () => {
    const { till, allocated, available } = await hubAndTerminal();
    expect(await available()).toBe(40);
    const sentAt = Date.now();
    expect(await kill(till, 'SIGTERM')).toBe(0);
    const seconds = (Date.now() - sentAt) / 1000;
    expect(allocated()).toBe(0);
    expect(await available()).toBe(50);
    expect(seconds).toBeLessThan(5);
  }, 60_000);

  it('SIGKILL: its places stay held until the allocation lapses at the hub (default 6 hours), then they are back', async () => {
    const { till, allocated, available, advance } = await hubAndTerminal();
    await kill(till, 'SIGKILL');
    expect(allocated()).toBe(10);
    advance(LAPSE_MS - 60_000);
    expect(await available()).toBe(40);
    advance(60_000 + 5_000);
    expect(await available()).toBe(50);
    expect(allocated()).toBe(0);
  }, 60_000);
});
