import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../engine/store/db';
import { createKeyRepo } from '../engine/store/key-repo';
import { kill, startServe } from '../test/helpers/serve-process';

/**
 * `node --import tsx bench/catalog-import.ts [SEATS] [ROUNDS]`: how a large catalog import treats the
 * engine (docs/decisions.md, "Catalog size and import"). Starts `serve` on a fresh data folder, PUTs a catalog of SEATS seats (default
 * 230,000: 15.1 MiB, near the 16 MiB limit) ROUNDS times (default 3: a first import, then re-imports), and
 * polls GET /health every 5 ms meanwhile. Prints per round the import's time, the slowest /health answer
 * (the longest the event loop was held, give or take a poll) and the engine's resident memory
 * (VmRSS before and after, VmHWM the peak so far, from /proc).
 */

const seats = Number(process.argv[2] ?? 230_000);
const rounds = Number(process.argv[3] ?? 3);
const PER_OCCURRENCE = 100_000;
const PER_BLOCK = 1_000;

const occurrence = (o: number, count: number) => ({
  id: `night-${o}`,
  startsAt: '2031-07-01T19:00:00Z',
  onSale: true,
  areas: Array.from({ length: Math.ceil(count / PER_BLOCK) }, (_, b) => ({
    id: `block-${b + 1}`,
    name: `Block ${b + 1}`,
    seating: 'assigned' as const,
    priceOptions: [{ id: `block-${b + 1}-full`, name: 'Full price', price: { amount: 5900, currency: 'EUR' } }],
    inventoryItems: Array.from({ length: Math.min(PER_BLOCK, count - b * PER_BLOCK) }, (_, s) => ({
      id: `B${b + 1}-R${Math.floor(s / 25) + 1}-S${(s % 25) + 1}`,
      label: `Block ${b + 1}, Row ${Math.floor(s / 25) + 1}, Seat ${(s % 25) + 1}`,
      capacity: 1,
    })),
  })),
});
const body = JSON.stringify({
  locations: [{ id: 'arena', name: 'Arena', currencies: ['EUR'] }],
  events: [{
    id: 'show', name: 'Show', locationId: 'arena', kind: 'ticket',
    occurrences: Array.from({ length: Math.ceil(seats / PER_OCCURRENCE) }, (_, o) => occurrence(o, Math.min(PER_OCCURRENCE, seats - o * PER_OCCURRENCE))),
  }],
});
console.log(`${seats} seats, ${body.length} bytes (${(body.length / 1048576).toFixed(2)} MiB)`);

const memoryMb = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const dataDir = mkdtempSync(join(tmpdir(), 'kassa-import-bench-'));
const db = openDatabase(dataDir);
const key = createKeyRepo(db).create('admin', ['admin']).key;
db.close();
const proc = await startServe(['--data', dataDir, '--no-demo', '--rate-limit', '0', '--log-level', 'warn'], 30_000);
const pid = proc.child.pid ?? 0;
try {
  for (let round = 1; round <= rounds; round++) {
    await fetch(`${proc.url}/api/v3/health`);
    const before = memoryMb(pid, 'VmRSS');
    let importing = true;
    let slowest = 0;
    const poller = (async () => {
      while (importing) {
        const sent = performance.now();
        await (await fetch(`${proc.url}/api/v3/health`)).arrayBuffer();
        slowest = Math.max(slowest, performance.now() - sent);
        await new Promise((done) => setTimeout(done, 5));
      }
    })();
    const started = performance.now();
    const answer = await fetch(`${proc.url}/api/v3/catalog`, { method: 'PUT', headers: { 'x-svc-api-key': key, 'content-type': 'application/json' }, body });
    const took = performance.now() - started;
    await answer.arrayBuffer();
    importing = false;
    await poller;
    console.log(`round ${round}: ${answer.status} in ${took.toFixed(0)} ms; slowest /health ${slowest.toFixed(0)} ms; ` +
      `RSS ${before.toFixed(0)} → ${memoryMb(pid, 'VmRSS').toFixed(0)} MB, peak ${memoryMb(pid, 'VmHWM').toFixed(0)} MB`);
  }
} finally {
  await kill(proc, 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
