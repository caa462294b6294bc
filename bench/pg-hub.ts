import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { loadMasterKey } from '../engine/store/channel-repo';
import { openStore } from '../engine/store/open';
import { findPostgresBinaries, startCluster, type Cluster } from '../test/helpers/pg-cluster';
import { benchCatalog, CONCERT, HISTORY, historyOccurrenceId } from './catalog';
import { startCpuSplit, type CpuSplit } from './cpu-split';
import { startWaitSampler } from './pg-waits';
import type { HubReport, HubRow, LoadResult, Target } from './report';
import { countSince, createKeys } from './terminal-probes';

/**
 * Scenario 8, "the hub on PostgreSQL" (issue #23): cart + checkout by card (bench/load.mjs `cartAndCheckout`, the
 * "cost as work grows" runs' loop: two standing tickets of the concert) at the same total connections as the
 * SQLite scenarios, on
 *   - the SQLite engine (one process, its own data file),
 *   - one engine process on PostgreSQL,
 *   - two engine processes on the same PostgreSQL database (each its own port and --data), the connections
 *     shared out evenly between them by one load generator running one autocannon instance per engine,
 *   - and the same two on PostgreSQL with the buyers spread over a hundred shows (each cart for one picked at
 *     random), to tell what one standing area's row costs from what every sale costs,
 * in rounds whose order reverses each time (SQLite, 1, 2, …, then …, 2, 1, SQLite), so that a machine that slows
 * down or speeds up meets every side alike. PostgreSQL is a throwaway cluster the bench starts itself
 * (test/helpers/pg-cluster.ts: the machine's binaries, a temp folder, fsync on, the server's defaults otherwise).
 * Every engine is a `serve` process of the bundle with the bench's flags, fresh for each run, on the bench
 * catalog's concert and its hundred standing shows (imported once per database). Around each run the CPU time of
 * the engine processes, of the PostgreSQL server (all its processes) and of the load generator is read from
 * /proc, with the orders the run made (counted in the database), so that the CPU one sale costs in the engine and
 * in the database can be told apart, and the PostgreSQL sessions' waits are sampled (bench/pg-waits.ts).
 * Without PostgreSQL binaries the scenario says why and is skipped.
 */

interface Running { readonly url: string; readonly pid: number }

export interface HubBench<S extends Running> {
  start(name: string, args: readonly string[]): Promise<S>;
  stop(server: S): Promise<void>;
  /** the arguments of an engine `serve` process on `dataDir`, as every engine run of the bench has them */
  engineArgs(dataDir: string, extra: readonly string[]): string[];
  /** runs bench/load.mjs with `plan` (warm-up, duration and connections already set); tells the generator's pid once spawned */
  loadGenerator(plan: Record<string, unknown>, spawned: (pid: number) => void): Promise<LoadResult>;
  say(line: string): void;
}

export interface HubSettings { readonly rounds: number }

/** The configurations, in the order of an odd round (an even round runs them backwards). */
const SIDES = [
  { id: 'sqlite', title: 'SQLite, 1 engine process', database: 'sqlite', processes: 1, spread: false },
  { id: 'pg-1', title: 'PostgreSQL, 1 engine process', database: 'postgres', processes: 1, spread: false },
  { id: 'pg-2', title: 'PostgreSQL, 2 engine processes', database: 'postgres', processes: 2, spread: false },
  { id: 'pg-1-spread', title: 'PostgreSQL, 1 engine process, 100 shows', database: 'postgres', processes: 1, spread: true },
  { id: 'pg-2-spread', title: 'PostgreSQL, 2 engine processes, 100 shows', database: 'postgres', processes: 2, spread: true },
] as const;

/** the hundred standing shows of the bench catalog, as load.mjs's `shows` */
const SHOWS = Array.from({ length: HISTORY.occurrences }, (_, i) => ({ occurrenceId: historyOccurrenceId(i), inventoryItemId: HISTORY.inventoryItemId, priceOptionId: HISTORY.priceOptionId }));

/** The bench catalog's concert and its hundred standing shows: the seat maps would only lengthen the import. */
function hubCatalog() {
  const all = benchCatalog();
  return { ...all, events: all.events.filter((event) => event.id === CONCERT.eventId || event.id === HISTORY.eventId) };
}
type Side = (typeof SIDES)[number];

/** Runs the scenario; `skipped` says why when the machine has no PostgreSQL. */
export async function hubOnPostgres<S extends Running>(bench: HubBench<S>, work: string, settings: HubSettings): Promise<HubReport> {
  const bin = findPostgresBinaries();
  if (typeof bin !== 'string') {
    bench.say(`hub on PostgreSQL: skipped (${bin.reason})`);
    return { skipped: bin.reason, rows: [], summary: [] };
  }
  const started = performance.now();
  const cluster = await startCluster(bin, { label: 'kassa bench cluster (bench/pg-hub.ts)' });
  try {
    const ready = await prepare(bench, work, cluster);
    bench.say(`hub on PostgreSQL: cluster ${cluster.url} and its databases ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const rows: HubRow[] = [];
    for (let round = 0; round < settings.rounds; round += 1) {
      const order = round % 2 === 0 ? SIDES : [...SIDES].reverse();
      for (const side of order) rows.push(await measure(bench, ready, cluster, side, round));
    }
    return { rows, summary: summarise(rows), server: await serverInfo(ready.database) };
  } finally {
    await cluster.stop();
  }
}

interface Prepared { readonly database: string; readonly key: string; readonly sqliteKey: string; readonly dirs: { readonly pg: readonly string[]; readonly sqlite: string } }

/**
 * A database `kassa_bench` on the cluster, migrated, with an admin key; the concert imported by a first start;
 * the second process's data folder a copy of the first's (one channel master key for both, as a hub's processes
 * share theirs). The SQLite side: a data folder of its own, the same key scopes and catalog.
 */
async function prepare<S extends Running>(bench: HubBench<S>, work: string, cluster: Cluster): Promise<Prepared> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query('CREATE DATABASE kassa_bench');
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.url);
  url.pathname = '/kassa_bench';
  const database = url.toString();
  const dirs = { pg: [join(work, 'pg-engine-1'), join(work, 'pg-engine-2')], sqlite: join(work, 'pg-sqlite') };
  const first = dirs.pg[0] ?? '';
  mkdirSync(first, { recursive: true });
  const store = await openStore(database, { dataDir: first, masterKey: loadMasterKey(first) });
  let key: string;
  try {
    key = (await store.repos.keys.create('bench', ['admin'])).key;
  } finally {
    await store.close();
  }
  const sqliteKey = createKeys(dirs.sqlite, [{ name: 'bench', scopes: ['admin'] }])[0]?.key ?? '';
  const catalog = join(work, 'pg-catalog.json');
  writeFileSync(catalog, JSON.stringify(hubCatalog()));
  for (const [dir, extra] of [[first, ['--database', database]], [dirs.sqlite, []]] as const) {
    const server = await bench.start('engine (catalog import)', bench.engineArgs(dir, [...extra, '--catalog', catalog]));
    await bench.stop(server);
  }
  cpSync(first, dirs.pg[1] ?? '', { recursive: true });
  return { database, key, sqliteKey, dirs };
}

/** One run: fresh engine process(es), cart + checkout spread over them, the CPU split and the orders made around it. */
async function measure<S extends Running>(bench: HubBench<S>, ready: Prepared, cluster: Cluster, side: Side, round: number): Promise<HubRow> {
  const onPg = side.database === 'postgres';
  const servers: S[] = [];
  try {
    for (let i = 0; i < side.processes; i += 1) {
      const dir = onPg ? (ready.dirs.pg[i] ?? '') : ready.dirs.sqlite;
      servers.push(await bench.start(`engine ${side.id} #${i + 1}`, bench.engineArgs(dir, onPg ? ['--database', ready.database] : [])));
    }
    bench.say(`${side.title}, round ${round + 1}: cart + checkout …`);
    const ordersBefore = await orders(ready, onPg);
    let loadPid: number | undefined;
    const waits = onPg ? await startWaitSampler(ready.database) : undefined;
    const cpu = startCpuSplit({ engines: servers.map((s) => s.pid), ...(onPg && { postmaster: cluster.postmaster }), loadPid: () => loadPid });
    let result: LoadResult;
    let split: CpuSplit;
    let sessions: Record<string, number> | undefined;
    try {
      const plan = { urls: servers.map((s) => s.url), key: onPg ? ready.key : ready.sqliteKey, concert: CONCERT, scenario: 'cartAndCheckout', ...(side.spread && { shows: SHOWS }) };
      result = await bench.loadGenerator(plan, (pid) => (loadPid = pid));
    } finally {
      split = cpu.stop();
      sessions = await waits?.stop();
    }
    const made = (await orders(ready, onPg)) - ordersBefore;
    const step = (name: string) => ({ p50: result.steps[name]?.p50 ?? Number.NaN, p99: result.steps[name]?.p99 ?? Number.NaN });
    const row: HubRow = {
      id: `${side.id}-${round + 1}`, config: side.id, title: `${side.title} #${round + 1}`, database: side.database, processes: side.processes, round,
      connections: result.connections, rps: result.rps, salesPerSecond: (result.steps.checkout?.statuses['201'] ?? 0) / result.seconds,
      p50: result.latency.p50, p99: result.latency.p99, createCart: step('create cart'), checkout: step('checkout'),
      errors: result.non2xx + result.socketErrors + result.timeouts, ordersMade: made, cpu: split,
      perProcessRps: result.perUrl?.map((u) => u.rps) ?? [result.rps], ...(sessions && { sessions }), load: result,
    };
    const perSale = (ms: number) => (ms / Math.max(1, made)).toFixed(2);
    bench.say(`  ${row.salesPerSecond.toFixed(0)} sales/s (${row.rps.toFixed(0)} req/s${side.processes > 1 ? `: ${row.perProcessRps.map((r) => r.toFixed(0)).join(' + ')}` : ''}), ` +
      `p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors}; CPU per sale: engine ${perSale(split.engineMs)} ms, PostgreSQL ${perSale(split.postgresMs)} ms, ` +
      `load generator ${perSale(split.loadMs)} ms; machine busy ${(split.machineBusyMs / split.wallMs).toFixed(2)} cores` +
      `${sessions ? `; PostgreSQL sessions: ${Object.entries(sessions).map(([what, n]) => `${what} ${n}`).join(', ')}` : ''}`);
    return row;
  } finally {
    for (const server of servers) await bench.stop(server);
  }
}

/** Orders in the side's database so far. */
async function orders(ready: Prepared, onPg: boolean): Promise<number> {
  if (!onPg) return countSince(ready.dirs.sqlite, 'SELECT COUNT(*) AS n FROM orders');
  const client = new pg.Client({ connectionString: ready.database });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM orders');
    return rows[0]?.n ?? Number.NaN;
  } finally {
    await client.end();
  }
}

/** The server's version and the settings that decide a commit's cost, as the run had them. */
async function serverInfo(database: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers', 'max_connections', 'commit_delay')");
    return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  } finally {
    await client.end();
  }
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Per configuration, over its rounds: means of sales/s, req/s and p50/p99, the CPU per sale by process group, and × SQLite. */
function summarise(rows: readonly HubRow[]): HubReport['summary'] {
  const sqlite = mean(rows.filter((r) => r.config === 'sqlite').map((r) => r.salesPerSecond));
  return SIDES.map((side) => {
    const of = rows.filter((r) => r.config === side.id);
    const sales = of.reduce((n, r) => n + r.ordersMade, 0);
    const perSale = (pick: (c: CpuSplit) => number) => of.reduce((n, r) => n + pick(r.cpu), 0) / Math.max(1, sales);
    const wall = of.reduce((n, r) => n + r.cpu.wallMs, 0);
    const salesPerSecond = mean(of.map((r) => r.salesPerSecond));
    const sessions: Record<string, number> = {};
    for (const row of of) for (const [what, n] of Object.entries(row.sessions ?? {})) sessions[what] = (sessions[what] ?? 0) + n / of.length;
    return {
      id: side.id, title: side.title, runs: of.length, ...(side.database === 'postgres' && { sessions }), salesPerSecond, rps: mean(of.map((r) => r.rps)), p50: mean(of.map((r) => r.p50)), p99: mean(of.map((r) => r.p99)),
      errors: of.reduce((n, r) => n + r.errors, 0), vsSqlite: salesPerSecond / sqlite,
      cpuMsPerSale: { engine: perSale((c) => c.engineMs), postgres: perSale((c) => c.postgresMs), load: perSale((c) => c.loadMs), machine: perSale((c) => c.machineBusyMs) },
      cores: { engine: of.reduce((n, r) => n + r.cpu.engineMs, 0) / wall, postgres: of.reduce((n, r) => n + r.cpu.postgresMs, 0) / wall, machine: of.reduce((n, r) => n + r.cpu.machineBusyMs, 0) / wall },
    };
  });
}

/** The scenario's targets: its rows present (or why not) and no failed request. */
export function hubTargets(report: HubReport): Target[] {
  if (report.skipped !== undefined) return [{ what: '8. hub on PostgreSQL, 1 and 2 engine processes', goal: 'measured', measured: `skipped: ${report.skipped}`, met: false }];
  const errors = report.rows.filter((r) => r.database === 'postgres').reduce((n, r) => n + r.errors, 0);
  const [one, two, oneSpread, twoSpread] = ['pg-1', 'pg-2', 'pg-1-spread', 'pg-2-spread'].map((id) => report.summary.find((s) => s.id === id));
  const pct = (x: number | undefined) => (x === undefined ? '–' : `${(100 * x).toFixed(0)} %`);
  const perSecond = (s: HubReport['summary'][number] | undefined) => `${s?.salesPerSecond.toFixed(0) ?? '–'}/s (${pct(s?.vsSqlite)})`;
  // a run whose requests all took longer than its window answered none in it: no figure, not a fast one
  const empty = report.rows.filter((r) => r.salesPerSecond === 0).map((r) => r.title);
  return [
    { what: '8. hub on PostgreSQL, 1 and 2 engine processes: failed requests (anything but 2xx)', goal: '0', measured: String(errors), met: errors === 0 },
    { what: '8. every run of scenario 8 completed sales in its measured window', goal: 'all', measured: empty.length === 0 ? 'all' : `none in: ${empty.join(', ')}`, met: empty.length === 0 },
    {
      what: '8. hub on PostgreSQL: cart + checkout per second (mean of the rounds) vs SQLite in the same run',
      goal: 'measured',
      measured: `1 process ${perSecond(one)}, 2 processes ${perSecond(two)}; over 100 shows: ${perSecond(oneSpread)}, ${perSecond(twoSpread)}`,
      met: one !== undefined && two !== undefined && Number.isFinite(one.salesPerSecond) && Number.isFinite(two.salesPerSecond),
    },
  ];
}
