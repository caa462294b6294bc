import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogDocument } from '../engine/contract/catalog';
import type { Scope } from '../engine/domain/scopes';
import { benchCatalog, CONCERT } from './catalog';
import type { LoadResult, Target, TerminalReport, TerminalRow, Timing } from './report';
import { countSince, cpuMs, createKeys, hand, interleaved, waitForHand } from './terminal-probes';

/**
 * Scenario 7, "a sale on a terminal" (issue #11, contract §10). (a) and (b): the same sale — a cart of two
 * standing tickets, then its checkout by card (`tok_visa`) — on a standalone engine and on a terminal of a
 * Kassa hub that holds the places, both at the same time, each driven by its own load generator, so that
 * both meet the shared machine in the same state (runs one after the other swung by ±40 % with the load of
 * other work); the terminal's req/s over the standalone's, run by run. (c): one cart at a time on that terminal
 * and on one that holds nothing (`--allocation 0`: every cart asks the hub for its places within the
 * request), taking turns with the round trips to the hub they are compared with. Every engine is a `serve`
 * process of the bundle with the bench's flags on a data dir of its own; a terminal reads its sync key from a
 * file (mode 0600), never from argv.
 */

interface Running { readonly url: string; readonly pid: number }

export interface TerminalBench<S extends Running> {
  start(name: string, args: readonly string[]): Promise<S>;
  stop(server: S): Promise<void>;
  load(server: S, plan: Record<string, unknown>): Promise<{ result: LoadResult; peakRssMb: number }>;
  /** the arguments of an engine `serve` process on `dataDir`, as every engine run of the bench has them */
  engineArgs(dataDir: string, extra: readonly string[]): string[];
  say(line: string): void;
}

/** Places the measured terminal keeps in hand: more than a run can put in carts between two top-ups (checked). */
export const HELD_ALLOCATION = 20_000;
/** The scopes a terminal's key has at its hub (as the sync tests give it). */
const TERMINAL_SCOPES: Scope[] = ['catalog:read', 'carts:write', 'orders:write', 'orders:import'];

/** The bench catalog's concert alone: a terminal tops up, and reads the venue's inventory of, every show on sale. */
export function concertCatalog(): CatalogDocument {
  const all = benchCatalog();
  return { ...all, events: all.events.filter((event) => event.id === CONCERT.eventId) };
}

export interface TerminalSettings { readonly connections: number; readonly warmup: number; readonly duration: number; readonly pairs: number }

export async function terminalSale<S extends Running>(bench: TerminalBench<S>, work: string, settings: TerminalSettings): Promise<{ report: TerminalReport; targets: Target[] }> {
  const dirs = { hub: join(work, 't-hub'), standalone: join(work, 't-standalone'), held: join(work, 't-held'), onDemand: join(work, 't-on-demand') };
  const catalogPath = join(work, 't-catalog.json');
  writeFileSync(catalogPath, JSON.stringify(concertCatalog()));
  const [heldAtHub, onDemandAtHub, probe] = createKeys(dirs.hub, [
    { name: 'terminal held', scopes: TERMINAL_SCOPES },
    { name: 'terminal on demand', scopes: TERMINAL_SCOPES },
    { name: 'bench round trips', scopes: ['orders:import'] },
  ]);
  if (!heldAtHub || !onDemandAtHub || !probe) throw new Error('terminal scenario: keys not made');
  const admin = (dir: string) => createKeys(dir, [{ name: 'bench', scopes: ['admin'] }])[0]?.key ?? '';
  const keys = { standalone: admin(dirs.standalone), held: admin(dirs.held), onDemand: admin(dirs.onDemand) };
  const keyFile = (name: string, key: string) => {
    const path = join(work, `${name}.key`);
    writeFileSync(path, `${key}\n`, { mode: 0o600 });
    return path;
  };

  const running: S[] = [];
  const start = async (name: string, args: readonly string[]) => {
    const server = await bench.start(name, args);
    running.push(server);
    return server;
  };
  const stop = async (server: S) => {
    const at = running.indexOf(server);
    if (at >= 0) running.splice(at, 1);
    await bench.stop(server);
  };
  const hub = await start('hub', bench.engineArgs(dirs.hub, ['--catalog', catalogPath]));
  const terminalArgs = (dir: string, keyPath: string, allocation: number) =>
    bench.engineArgs(dir, ['--catalog', catalogPath, '--upstream', hub.url, '--upstream-key-file', keyPath, '--allocation', String(allocation)]);
  try {
    const standalone = await start('standalone engine', bench.engineArgs(dirs.standalone, ['--catalog', catalogPath]));
    const held = await start('terminal', terminalArgs(dirs.held, keyFile('held', heldAtHub.key), HELD_ALLOCATION));
    await waitForHand(held, keys.held, (h) => h.mode === 'hub' && h.sellable >= HELD_ALLOCATION, `${HELD_ALLOCATION} places in hand`);
    bench.say(`terminal scenario: hub ${hub.url}, standalone ${standalone.url}, terminal ${held.url} holding ${HELD_ALLOCATION.toLocaleString('en-US')} places`);

    // (a) and (b) at the same time, each with its own load generator: both meet the machine in the same state.
    const rows: TerminalRow[] = [];
    const conns = `${settings.connections} connection${settings.connections === 1 ? '' : 's'}`;
    for (let n = 1; n <= settings.pairs; n++) {
      bench.say(`standalone engine and terminal at the same time #${n}, ${conns} each …`);
      const hubCpu = cpuMs(hub.pid);
      const [alone, terminal] = await Promise.all([
        measure(bench, { id: `standalone-${n}`, title: `standalone engine #${n}`, server: standalone, key: keys.standalone, dir: dirs.standalone, connections: settings.connections }),
        measure(bench, { id: `terminal-${n}`, title: `terminal holding its places #${n}`, server: held, key: keys.held, dir: dirs.held, connections: settings.connections, atHub: { dir: dirs.hub, id: heldAtHub.id } }),
      ]);
      terminal.hubCpuMs = cpuMs(hub.pid) - hubCpu;
      terminal.ratio = terminal.rps / alone.rps;
      rows.push(alone, terminal);
      for (const row of [alone, terminal]) {
        bench.say(`  ${row.title}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.cpuMsPerSale.toFixed(2)} CPU ms per sale, errors ${row.errors}` +
          `${row.grants === undefined ? '' : `, ${row.grants} grants, ${row.sellableAtStart} places in hand at start`}`);
      }
    }

    // (c) one cart at a time — on the standalone engine, on the terminal holding its places and on one holding
    // nothing (--allocation 0: every cart asks the hub within the request) — taking turns with the round trips
    // to the hub they are compared with. No checkout: nothing to deliver, so the cart's own path is measured.
    const onDemand = await start('terminal --allocation 0', terminalArgs(dirs.onDemand, keyFile('on-demand', onDemandAtHub.key), 0));
    await waitForHand(onDemand, keys.onDemand, (h) => h.mode === 'hub' && h.online, 'hub detected');
    bench.say('one cart at a time: standalone, held, on demand, beside the hub round trips …');
    const cart = (server: S, key: string): (() => Promise<Response>) => () =>
      fetch(`${server.url}/api/v3/carts`, { method: 'POST', headers: { 'x-svc-api-key': key, 'content-type': 'application/json' }, body: CART });
    let sign = 1;
    const since = Date.now();
    const oneAtATime = await interleaved([
      { what: 'create cart on the standalone engine', status: 201, send: cart(standalone, keys.standalone) },
      { what: 'create cart on the terminal holding its places', status: 201, send: cart(held, keys.held) },
      { what: 'create cart on the terminal holding nothing (--allocation 0)', status: 201, send: cart(onDemand, keys.onDemand) },
      {
        what: 'hub round trip: POST /allocations, 2 places granted or given back',
        status: 200,
        send: () => {
          sign = -sign;
          return fetch(`${hub.url}/api/v3/allocations`, {
            method: 'POST',
            headers: { 'x-svc-api-key': probe.key, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ changes: [{ occurrenceId: CONCERT.occurrenceId, inventoryItemId: CONCERT.inventoryItemId, change: -2 * sign }] }),
          });
        },
      },
      { what: 'hub round trip: GET /capabilities (no key, no database)', status: 200, send: () => fetch(`${hub.url}/api/v3/capabilities`) },
    ], settings.warmup, settings.duration);
    const asked = {
      carts: countSince(dirs.onDemand, 'SELECT COUNT(*) AS n FROM carts WHERE created_at >= ?', since),
      grants: countSince(dirs.hub, 'SELECT COUNT(*) AS n FROM allocation_requests WHERE terminal_id = ? AND created_at >= ?', onDemandAtHub.id, since),
    };
    for (const t of oneAtATime) bench.say(`  ${t.what}: p50 ${t.p50.toFixed(2)} ms, p99 ${t.p99.toFixed(2)} ms (${t.count})`);
    bench.say(`  the terminal holding nothing made ${asked.carts} carts and asked the hub ${asked.grants} times`);
    await stop(onDemand);
    await stop(standalone);
    return { report: { rows, oneAtATime }, targets: targetsOf(rows, oneAtATime, asked) };
  } finally {
    // Terminals first: a terminal that stops cleanly gives its places back to the hub.
    for (const server of running.filter((s) => s !== hub)) await bench.stop(server);
    await bench.stop(hub);
  }
}

const CART = JSON.stringify({ items: [{ occurrenceId: CONCERT.occurrenceId, inventoryItemId: CONCERT.inventoryItemId, priceOptionId: CONCERT.priceOptionId, quantity: 2 }] });

interface RunSpec<S> { id: string; title: string; server: S; key: string; dir: string; connections: number; atHub?: { dir: string; id: string } }

/** One engine's load run (cart + checkout by card); its CPU, carts and (a terminal) grants and hand around it. */
async function measure<S extends Running>(bench: TerminalBench<S>, run: RunSpec<S>): Promise<TerminalRow> {
  const sellableAtStart = run.atHub ? (await hand(run.server, run.key)).sellable : undefined;
  const since = Date.now();
  const cpu = cpuMs(run.server.pid);
  const { result, peakRssMb } = await bench.load(run.server, { key: run.key, concert: CONCERT, scenario: 'cartAndCheckout', connections: run.connections });
  const cpuSpent = cpuMs(run.server.pid) - cpu;
  const carts = countSince(run.dir, 'SELECT COUNT(*) AS n FROM carts WHERE created_at >= ?', since);
  const step = (name: string) => ({ p50: result.steps[name]?.p50 ?? Number.NaN, p99: result.steps[name]?.p99 ?? Number.NaN });
  return {
    id: run.id, title: run.title, connections: result.connections, rps: result.rps, p50: result.latency.p50, p99: result.latency.p99,
    createCart: step('create cart'), checkout: step('checkout'), errors: result.non2xx + result.socketErrors + result.timeouts, peakRssMb, carts,
    cpuMsPerSale: cpuSpent / Math.max(1, carts), load: result,
    ...(run.atHub && {
      sellableAtStart,
      grants: countSince(run.atHub.dir, 'SELECT COUNT(*) AS n FROM allocation_requests WHERE terminal_id = ? AND created_at >= ?', run.atHub.id, since),
    }),
  };
}

function targetsOf(rows: TerminalRow[], oneAtATime: Timing[], asked: { carts: number; grants: number }): Target[] {
  const terminals = rows.filter((r) => r.ratio !== undefined);
  const ratios = terminals.map((t) => t.ratio ?? Number.NaN);
  const ratio = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  const conns = terminals[0]?.connections ?? 0;
  const placed = Math.max(...terminals.map((t) => 2 * t.carts));
  const inHand = Math.min(...terminals.map((t) => t.sellableAtStart ?? 0));
  const [alone, held, onDemand, grant, bare] = oneAtATime;
  const cartRatio = (alone?.p50 ?? Number.NaN) / (held?.p50 ?? Number.NaN);
  const added = (onDemand?.p50 ?? Number.NaN) - (held?.p50 ?? Number.NaN);
  const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
  const meanCpu = (of: TerminalRow[]) => of.reduce((sum, r) => sum + r.cpuMsPerSale, 0) / of.length;
  const cpu = { alone: meanCpu(rows.filter((r) => r.ratio === undefined)), terminal: meanCpu(terminals) };
  const extraCpu = cpu.terminal / cpu.alone - 1;
  return [
    {
      what: `7. sale on a terminal holding its places, ${conns} connection${conns === 1 ? '' : 's'} each: req/s vs standalone`,
      goal: 'within 10 % (≥ 90 %)',
      measured: `${ratios.map(pct).join(', ')} (mean ${pct(ratio)})`,
      met: ratio >= 0.9,
    },
    {
      what: '7. sale on a terminal holding its places: CPU per sale vs standalone (engine process)',
      goal: 'within 10 % (≤ +10 %)',
      measured: `${cpu.terminal.toFixed(2)} vs ${cpu.alone.toFixed(2)} ms (${extraCpu >= 0 ? '+' : ''}${pct(extraCpu)})`,
      met: extraCpu <= 0.1,
    },
    {
      what: '7. create cart (1 at a time) on the terminal holding its places: p50 vs standalone',
      goal: 'within 10 % (≥ 90 %)',
      measured: `${held?.p50.toFixed(2) ?? '?'} vs ${alone?.p50.toFixed(2) ?? '?'} ms (${pct(cartRatio)} of the standalone's speed)`,
      met: cartRatio >= 0.9,
    },
    {
      what: '7. held runs: places put in carts ≤ places in hand at the start (no on-demand grant)',
      goal: '≤',
      measured: `${placed.toLocaleString('en-US')} ≤ ${inHand.toLocaleString('en-US')}`,
      met: placed <= inHand,
    },
    {
      what: '7. on-demand grant: create cart p50 (1 at a time), held → holding nothing',
      goal: '+ 1 hub round trip',
      measured: `${held?.p50.toFixed(2) ?? '?'} → ${onDemand?.p50.toFixed(2) ?? '?'} ms (+${added.toFixed(2)} ms; round trip: grant ${grant?.p50.toFixed(2) ?? '?'} ms, bare ${bare?.p50.toFixed(2) ?? '?'} ms)`,
      // one round trip, not two: less than twice the grant's own; and every cart of the run asked the hub
      met: grant !== undefined && added < 2 * grant.p50 && asked.grants >= asked.carts,
    },
  ];
}
