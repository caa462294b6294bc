import type { CpuSplit } from './cpu-split';
import type { LoadResult } from './report';
import { fmt, int, pad, pct } from './table-format';

/** Scenario 8's part of the bench report (bench/pg-hub.ts): its runs, their summary, and its table. */

/** One run of scenario 8 (bench/pg-hub.ts): cart + checkout on SQLite, or on PostgreSQL with one or two engine processes. */
export interface HubRow {
  id: string;
  /** the configuration (sqlite, pg-1, pg-2, pg-1-spread, pg-2-spread): id without the round */
  config: string;
  title: string;
  database: 'sqlite' | 'postgres';
  processes: number;
  round: number;
  /** all engines together */
  connections: number;
  rps: number;
  /** checkouts answered 201 per second of the measured window */
  salesPerSecond: number;
  p50: number;
  p99: number;
  createCart: { p50: number; p99: number };
  checkout: { p50: number; p99: number };
  /** answers other than 2xx, socket errors and timeouts */
  errors: number;
  /** orders the run made (warm-up included), counted in the database: what the CPU figures are divided by */
  ordersMade: number;
  /** the CPU time of the engines, PostgreSQL, the load generator and the machine during the run (warm-up included) */
  cpu: CpuSplit;
  /** req/s each engine process answered */
  perProcessRps: number[];
  /** PostgreSQL: the database's sessions by what they waited on, mean count over the run (bench/pg-waits.ts) */
  sessions?: Record<string, number>;
  load: LoadResult;
}

/** A configuration of scenario 8 over its rounds. */
export interface HubSummary {
  id: string; title: string; runs: number; salesPerSecond: number; rps: number; p50: number; p99: number; errors: number;
  /** sales/s over the SQLite side's, both means over the rounds of this run */
  vsSqlite: number;
  /** CPU ms per sale (order made) of the engine processes, the PostgreSQL server, the load generator, the machine's busy time */
  cpuMsPerSale: { engine: number; postgres: number; load: number; machine: number };
  /** CPU time per wall-clock second: cores kept busy by the engines, PostgreSQL, the whole machine */
  cores: { engine: number; postgres: number; machine: number };
  /** PostgreSQL: the sessions' waits, mean over the rounds */
  sessions?: Record<string, number>;
}

export interface HubReport {
  /** why the scenario did not run (no PostgreSQL binaries) */
  skipped?: string;
  rows: HubRow[];
  summary: HubSummary[];
  /** PostgreSQL's version and commit settings as the run had them */
  server?: Record<string, string>;
}

/** Scenario 8's runs and their summary per configuration, as Markdown. */
export function hubTable(h: HubReport): string {
  const title = '### 8. The hub on PostgreSQL (issue #23): cart + checkout, SQLite beside PostgreSQL with 1 and 2 engine processes';
  if (h.skipped !== undefined) return [title, '', `Skipped: ${h.skipped}.`].join('\n');
  const head = ['run', 'conns', 'sales/s', 'req/s', 'per process req/s', 'p50 ms', 'p99 ms', 'create cart p50 / p99 ms', 'checkout p50 / p99 ms', 'errors', 'engine CPU ms/sale', 'PostgreSQL CPU ms/sale', 'machine busy, cores'];
  const rows = h.rows.map((r) => [r.title, String(r.connections), int(r.salesPerSecond), int(r.rps), r.perProcessRps.map(int).join(' + '), fmt(r.p50, 2), fmt(r.p99, 2),
    `${fmt(r.createCart.p50, 2)} / ${fmt(r.createCart.p99, 2)}`, `${fmt(r.checkout.p50, 2)} / ${fmt(r.checkout.p99, 2)}`, String(r.errors),
    fmt(r.cpu.engineMs / Math.max(1, r.ordersMade), 2), r.database === 'postgres' ? fmt(r.cpu.postgresMs / Math.max(1, r.ordersMade), 2) : '–', fmt(r.cpu.machineBusyMs / r.cpu.wallMs, 2)]);
  const sumHead = ['configuration (mean of the rounds)', 'sales/s', 'p50 ms', 'p99 ms', 'errors', '× SQLite', 'CPU ms per sale: engine / PostgreSQL / load gen. / machine', 'cores busy: engine / PostgreSQL / machine', 'PostgreSQL sessions (mean): waiting on'];
  const waits = (w: Record<string, number> | undefined) => (w ? Object.entries(w).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([what, n]) => `${what} ${fmt(n, 1)}`).join(', ') : '–');
  const sums = h.summary.map((s) => [s.title, int(s.salesPerSecond), fmt(s.p50, 2), fmt(s.p99, 2), String(s.errors), pct(100 * s.vsSqlite),
    `${fmt(s.cpuMsPerSale.engine, 2)} / ${fmt(s.cpuMsPerSale.postgres, 2)} / ${fmt(s.cpuMsPerSale.load, 2)} / ${fmt(s.cpuMsPerSale.machine, 2)}`,
    `${fmt(s.cores.engine, 2)} / ${fmt(s.cores.postgres, 2)} / ${fmt(s.cores.machine, 2)}`, waits(s.sessions)]);
  const server = h.server ? `PostgreSQL ${h.server.server_version ?? '?'}, fsync ${h.server.fsync ?? '?'}, synchronous_commit ${h.server.synchronous_commit ?? '?'}, ` +
    `wal_sync_method ${h.server.wal_sync_method ?? '?'}, shared_buffers ${h.server.shared_buffers ?? '?'} × 8 kB, max_connections ${h.server.max_connections ?? '?'}` : '';
  return [title, '', pad([head, ...rows]), '', pad([sumHead, ...sums]), ...(server ? ['', server] : [])].join('\n');
}
