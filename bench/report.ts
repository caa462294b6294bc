/**
 * The benchmark's output: one table on stdout (and in bench/README.md), the same as JSON, and an SVG chart of
 * throughput and p99 per scenario.
 */
import { hubTable, type HubReport } from './hub-report';
import { journalTable, type JournalReport } from './journal-report';
import { checkinTable, type CheckinReport } from './checkin-report';
import { fmt, int, pad, pct } from './table-format';

export type { HubReport, HubRow, HubSummary } from './hub-report';

/** What the load generator (bench/load.mjs) prints for one run. */
export interface LoadResult {
  scenario: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  latency: { count: number; p50: number; p90: number; p99: number; mean: number; max: number };
  statuses: Record<string, number>;
  non2xx: number;
  fivexx: number;
  socketErrors: number;
  timeouts: number;
  steps: Record<string, { count: number; p50: number; p90: number; p99: number; mean: number; max: number; statuses: Record<string, number> }>;
  autocannon: { requests: number; rpsAverage: number; latency2xx: { p50: number; p90: number; p99: number }; non2xx: number };
  /** with several engines (plan.urls): each one's connections and measured requests */
  perUrl?: { url: string; connections: number; requests: number; rps: number }[];
  flash?: { seats: number; sold: number; lostRaces: number; soldOutMs: number | null };
}

/** One measured run, engine or baseline. */
export interface Row {
  id: string;
  title: string;
  group: 'scenario' | 'baseline' | 'scale';
  target: 'engine' | 'baseline';
  connections: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  /** requests that failed: answers other than 2xx (the flash sale counts only 5xx: a lost race is a 409 by design), socket errors, timeouts */
  errors: number;
  /** highest VmRSS of the server process sampled during the run, MB */
  peakRssMb: number;
  /** req/s of the baseline runs just before and after this one (their mean) */
  baselineRps?: number;
  ratio?: number;
  /** orders in the database when the run started */
  ordersBefore?: number;
  note?: string;
  /** the machine's CPU steal during the run (time the hypervisor gave the VM's CPUs to others), % of all CPU time */
  stealPct?: number;
  load: LoadResult;
}

/**
 * One run of the alternated growth comparison: cart + checkout at 50 connections on a copy of the database with
 * no orders ('empty') or on the one seeded to the largest history ('full'), fresh engine each, sides alternating.
 */
export interface GrowthRun {
  side: 'empty' | 'full'; round: number; orders: number; rps: number; createCartP50: number; checkoutP50: number; stealPct: number;
  /** what the engine had read from the disk itself during the run (page cache misses), KB */
  diskReadKb: number;
  /** spawn → listening, ms */
  readyMs: number;
  /** answers other than 2xx, socket errors and timeouts */
  errors: number;
}

export interface StartupFigure { what: string; seconds: number; orders: number; rssMb?: number }

export interface Target { what: string; goal: string; measured: string; met: boolean }

export interface BenchReport {
  startedAt: string;
  seconds: number;
  machine: { cpus: number; cpuModel: string; node: string; memoryGb: number; loadAverageBefore: number[]; loadAverageAfter: number[]; stealPct?: number };
  settings: { warmupSeconds: number; measureSeconds: number };
  rows: Row[];
  startup: StartupFigure[];
  seeding: { orders: number; seconds: number; totalOrders: number }[];
  growth?: GrowthRun[];
  flash?: { soldOutMs: number | null; proof: Record<string, number | boolean> };
  /** scenario 7 (issue #11): a sale on a terminal of a hub beside the same sale on a standalone engine */
  terminal?: TerminalReport;
  /** scenario 8 (issue #23): the hub on PostgreSQL with one and two engine processes, beside SQLite */
  hub?: HubReport;
  /** scenario 9 (issue #25): the whole sale with the journal and without */
  journal?: JournalReport;
  /** scenario 10 (issue #26): check-ins per second and their latency, at a gate deciding alone and through a hub */
  checkin?: CheckinReport;
  targets: Target[];
}

/** One engine's side of a run of scenario 7: cart + checkout on a standalone engine or on a terminal (bench/terminal-sale.ts). */
export interface TerminalRow {
  id: string;
  title: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  createCart: { p50: number; p99: number };
  checkout: { p50: number; p99: number };
  errors: number;
  peakRssMb: number;
  /** carts made during the run (warm-up included), from the engine's data file */
  carts: number;
  /** CPU time (user + system) of the engine process per cart + checkout, over the whole run */
  cpuMsPerSale: number;
  /** CPU time of the hub process during the run (it runs on the same machine), ms */
  hubCpuMs?: number;
  /** POST /allocations of this terminal that the hub answered during the run */
  grants?: number;
  /** at a terminal: places it could sell from its hand when the run started */
  sellableAtStart?: number;
  /** req/s over the standalone engine's req/s in the same run */
  ratio?: number;
  load: LoadResult;
}

/** Requests made one at a time from the bench's own process (fetch, as a terminal calls its hub), interleaved. */
export interface Timing { what: string; count: number; p50: number; p99: number }

export interface TerminalReport { rows: TerminalRow[]; oneAtATime: Timing[] }

/** The results as Markdown tables (what `npm run bench` prints and docs/benchmark.md shows). */
export function table(report: BenchReport): string {
  const head = ['scenario', 'conns', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'errors', 'peak RSS MB', 'CPU steal', '× baseline'];
  const row = (r: Row) => [r.title, String(r.connections), int(r.rps), fmt(r.p50, 2), fmt(r.p90, 2), fmt(r.p99, 2), String(r.errors), fmt(r.peakRssMb, 0), pct(r.stealPct),
    r.ratio === undefined ? '–' : `${(100 * r.ratio).toFixed(0)} %`];
  const out: string[] = [];
  out.push(`### Scenarios (each ${report.settings.warmupSeconds} s warm-up, ${report.settings.measureSeconds} s measured; baseline runs in between)`, '');
  out.push(pad([head, ...report.rows.filter((r) => r.group !== 'scale').map(row)]));
  out.push('', '### Cost as work grows', '');
  const scale = report.rows.filter((r) => r.group === 'scale' || r.id === 'create-cart' || r.id === 'inventory-20000');
  const scaleHead = ['run', 'orders before', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'create cart p50 / p99 ms', 'checkout p50 / p99 ms', 'errors', 'peak RSS MB'];
  const stepCell = (r: Row, name: string) => {
    const step = r.load.steps[name];
    return step && Object.keys(r.load.steps).length > 1 ? `${fmt(step.p50, 2)} / ${fmt(step.p99, 2)}` : '–';
  };
  out.push(pad([scaleHead, ...scale.map((r) => [r.title, r.ordersBefore === undefined ? '–' : int(r.ordersBefore), String(r.connections), int(r.rps), fmt(r.p50, 2), fmt(r.p99, 2),
    stepCell(r, 'create cart'), stepCell(r, 'checkout'), String(r.errors), fmt(r.peakRssMb, 0)])]));
  if (report.growth?.length) {
    out.push('', '### Growth, alternated (a fresh engine per run on a copy of the database made before the first order or on the seeded one, sides taking turns)', '');
    out.push(pad([['round', 'database', 'orders', 'ready s', 'req/s', 'create cart p50 ms', 'checkout p50 ms', 'CPU steal', 'read from disk KB'],
      ...report.growth.map((g) => [String(g.round + 1), g.side === 'empty' ? 'pristine copy' : 'seeded', int(g.orders), fmt(g.readyMs / 1000, 2), int(g.rps), fmt(g.createCartP50, 2), fmt(g.checkoutP50, 2),
        pct(g.stealPct), fmt(g.diskReadKb, 0)])]));
  }
  out.push('', '### Start-up and seeding', '');
  out.push(pad([['what', 'orders in db', 'seconds', 'RSS MB when ready'], ...report.startup.map((s) => [s.what, int(s.orders), fmt(s.seconds, 2), fmt(s.rssMb, 0)]),
    ...report.seeding.map((s) => [`seed ${int(s.orders)} orders (one transaction)`, int(s.totalOrders), fmt(s.seconds, 1), '–'])]));
  if (report.flash) {
    const p = report.flash.proof;
    out.push('', `### Flash sale proof (SQL on the data file)`, '');
    out.push(`sold out in ${fmt((report.flash.soldOutMs ?? Number.NaN) / 1000, 2)} s; seats sold ${p.soldBefore} → ${p.soldAfter}; held after ${p.heldAfter}; ` +
      `seats over capacity ${p.oversold}; orders ${p.orders}; tickets ${p.tickets} for ${p.distinctSeatsTicketed} distinct seats; seats sold twice ${p.seatsSoldTwice}: ${p.ok ? 'PROVEN' : 'FAILED'}`);
  }
  if (report.terminal) out.push('', terminalTable(report.terminal));
  if (report.hub) out.push('', hubTable(report.hub));
  if (report.journal) out.push('', journalTable(report.journal));
  if (report.checkin) out.push('', checkinTable(report.checkin));
  out.push('', '### Targets', '', targetsTable(report.targets));
  out.push('', `Machine: ${report.machine.cpus} × ${report.machine.cpuModel}, ${fmt(report.machine.memoryGb, 0)} GB, Node ${report.machine.node}; ` +
    `load average before ${report.machine.loadAverageBefore.map((x) => x.toFixed(2)).join(' ')}, after ${report.machine.loadAverageAfter.map((x) => x.toFixed(2)).join(' ')}; ` +
    `CPU steal over the run ${pct(report.machine.stealPct)}; ` +
    `whole run ${fmt(report.seconds, 0)} s.`);
  return out.join('\n');
}

export function targetsTable(targets: readonly Target[]): string {
  return pad([['target', 'goal', 'measured', ''], ...targets.map((t) => [t.what, t.goal, t.measured, t.met ? 'met' : 'MISSED'])]);
}

/** Scenario 7's runs and the hub round trips, as Markdown. */
export function terminalTable(t: TerminalReport): string {
  const head = ['run', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'create cart p50 / p99 ms', 'checkout p50 / p99 ms', 'errors', 'CPU ms per sale', 'hub CPU ms', 'grants', '× standalone'];
  const cells = t.rows.map((r) => [r.title, String(r.connections), int(r.rps), fmt(r.p50, 2), fmt(r.p99, 2), `${fmt(r.createCart.p50, 2)} / ${fmt(r.createCart.p99, 2)}`,
    `${fmt(r.checkout.p50, 2)} / ${fmt(r.checkout.p99, 2)}`, String(r.errors), fmt(r.cpuMsPerSale, 2), fmt(r.hubCpuMs, 0), r.grants === undefined ? '–' : int(r.grants),
    r.ratio === undefined ? '–' : `${(100 * r.ratio).toFixed(0)} %`]);
  const timings = t.oneAtATime.map((r) => [r.what, int(r.count), fmt(r.p50, 2), fmt(r.p99, 2)]);
  return ['### 7. A sale on a terminal (issue #11)', '', pad([head, ...cells]), '', pad([['one request at a time, interleaved', 'requests', 'p50 ms', 'p99 ms'], ...timings])].join('\n');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Bar { label: string; rps: number; p99: number; color: string; p99Color: string }

/** Two horizontal bar panels on log scales, one bar per run: throughput (req/s) and p99 latency (ms); scenario 8's runs last. */
export function chart(report: BenchReport): string {
  const color = (r: Row) => (r.target === 'baseline' ? '#9aa5b1' : r.group === 'scale' ? '#6f9fd8' : '#1f6fd1');
  const rows: Bar[] = [
    ...report.rows.map((r) => ({ label: `${r.title} (${r.connections} c)`, rps: r.rps, p99: r.p99, color: color(r), p99Color: r.target === 'baseline' ? '#c3b7a8' : '#d1761f' })),
    ...(report.hub?.rows ?? []).map((r) => ({ label: `8. ${r.title} (${r.connections} c)`, rps: r.rps, p99: r.p99, color: r.database === 'postgres' ? '#2f8f5b' : '#6f9fd8', p99Color: '#d1761f' })),
    ...(report.checkin?.rows ?? []).map((r) => ({ label: `10. check-in, ${r.side === 'alone' ? 'offline' : 'through the hub'} (${r.connections} c)`, rps: r.rps, p99: r.p99, color: '#8a5cc2', p99Color: '#d1761f' })),
  ];
  const labelW = 300;
  const panelW = 330;
  const gap = 40;
  const barH = 16;
  const rowH = 22;
  const top = 64;
  const height = top + rows.length * rowH + 40;
  const width = labelW + 2 * panelW + gap + 20;
  const decades = (max: number) => Math.max(1, Math.ceil(Math.log10(Math.max(max, 10))));
  const rpsDecades = decades(Math.max(...rows.map((r) => r.rps)));
  const p99Decades = decades(Math.max(...rows.map((r) => r.p99)));
  const scale = (value: number, n: number) => (Math.log10(Math.max(value, 1)) / n) * (panelW - 60);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  parts.push(`<text x="10" y="20" font-size="14" font-weight="bold">Kassa engine benchmark — ${esc(report.startedAt)}</text>`);
  parts.push(`<text x="${labelW}" y="42" font-weight="bold">throughput, req/s (log scale; grey: baseline; green: PostgreSQL)</text>`);
  parts.push(`<text x="${labelW + panelW + gap}" y="42" font-weight="bold">p99 latency, ms (log scale)</text>`);
  const axis = (x0: number, n: number) => {
    for (let d = 0; d <= n; d++) {
      const x = x0 + (d / n) * (panelW - 60);
      parts.push(`<line x1="${x.toFixed(1)}" y1="${top - 6}" x2="${x.toFixed(1)}" y2="${top + rows.length * rowH}" stroke="#e3e3e3"/>`);
      parts.push(`<text x="${x.toFixed(1)}" y="${top - 9}" text-anchor="middle" fill="#777">${int(10 ** d)}</text>`);
    }
  };
  axis(labelW, rpsDecades);
  axis(labelW + panelW + gap, p99Decades);
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    const w1 = scale(r.rps, rpsDecades);
    const w2 = scale(r.p99, p99Decades);
    parts.push(`<text x="${labelW - 8}" y="${y + 12}" text-anchor="end">${esc(r.label)}</text>`);
    parts.push(`<rect x="${labelW}" y="${y}" width="${w1.toFixed(1)}" height="${barH}" fill="${r.color}"/>`);
    parts.push(`<text x="${(labelW + w1 + 4).toFixed(1)}" y="${y + 12}">${int(r.rps)}</text>`);
    parts.push(`<rect x="${labelW + panelW + gap}" y="${y}" width="${w2.toFixed(1)}" height="${barH}" fill="${r.p99Color}"/>`);
    parts.push(`<text x="${(labelW + panelW + gap + w2 + 4).toFixed(1)}" y="${y + 12}">${fmt(r.p99, 1)}</text>`);
  });
  parts.push(`<text x="10" y="${height - 12}" fill="#555">${esc(`${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}; ${report.settings.warmupSeconds} s warm-up + ${report.settings.measureSeconds} s per run; load average before ${report.machine.loadAverageBefore.map((x) => x.toFixed(2)).join(' ')}`)}</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
