import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CONCERT, VOUCHER } from './catalog';
import type { JournalReport, JournalRow } from './journal-report';
import type { LoadResult, Target } from './report';
import { concertCatalog } from './terminal-sale';
import { startCpuSplit } from './cpu-split';
import { countSince, cpuMs, createKeys } from './terminal-probes';

/**
 * Scenario 9, "what journalling costs" (issue #25: at most 10 % of the whole sale's throughput, measured in the same
 * run). The whole sale of scenario 2 (cart, extra, voucher, card checkout; 50 connections) on engines started with
 * startEngine's bench-only option `journal` on and off (bench/journal-serve.ts: one bundle, so both sides are the
 * same kind of process and differ in that option alone), in pairs whose order alternates (on/off, off/on, …) so
 * that a machine drifting during the run weighs on both sides alike. Each run: a fresh engine on a fresh copy of one
 * database (the concert imported, an admin key), a shift opened first (POST /shifts) so that each order's journal
 * entry looks up the open shift as at a box office, then the load. Journalled runs are checked to have written an
 * `order` entry per order (and the others none), and the last one's chain is verified through the API.
 */

interface Running { readonly url: string; readonly pid: number }

export interface JournalBench<S extends Running> {
  start(name: string, args: readonly string[]): Promise<S>;
  stop(server: S): Promise<void>;
  load(server: S, plan: Record<string, unknown>): Promise<{ result: LoadResult; peakRssMb: number; stealPct: number }>;
  /** the bench's engine flags and serve options, for `script` instead of dist/engine/serve.mjs */
  scriptArgs(script: string, scriptFirst: readonly string[], dataDir: string, extra: readonly string[]): string[];
  say(line: string): void;
}

/** Builds dist/bench/journal-serve.mjs as engine/cli/bundle.mjs builds dist/engine/serve.mjs (run that first: its migrations are used). */
async function bundle(root: string): Promise<string> {
  const inline = new Set(['typebox', 'fastify', 'pino', '@fastify/rate-limit', '@fastify/static', '@fastify/swagger', 'negotiator', 'currency-codes']);
  const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const outfile = join(root, 'dist', 'bench', 'journal-serve.mjs');
  await build({
    entryPoints: [join(root, 'bench', 'journal-serve.ts')], bundle: true, platform: 'node', target: 'node20', format: 'esm',
    external: Object.keys(dependencies).filter((name) => !inline.has(name)).flatMap((name) => [name, `${name}/*`]),
    sourcemap: true, sourcesContent: false,
    banner: { js: "import { createRequire as __kassaRequire } from 'node:module'; const require = __kassaRequire(import.meta.url);" },
    define: { 'process.env.KASSA_BUNDLED': '"1"' }, outfile, logLevel: 'warning',
  });
  return outfile;
}

const PAIRS_DEFAULT = 3;

export async function journalCost<S extends Running>(bench: JournalBench<S>, root: string, work: string, settings: { pairs?: number }): Promise<{ report: JournalReport; target: Target }> {
  const script = await bundle(root);
  const template = join(work, 'j-template');
  const runDir = join(work, 'j-run');
  const catalog = join(work, 'j-catalog.json');
  writeFileSync(catalog, JSON.stringify(concertCatalog()));
  const key = createKeys(template, [{ name: 'bench', scopes: ['admin'] }])[0]?.key ?? '';
  const args = (on: boolean, dir: string, extra: readonly string[] = []) => bench.scriptArgs(script, [`journal=${on ? 'on' : 'off'}`], dir, extra);
  await bench.stop(await bench.start('engine (catalog import)', args(true, template, ['--catalog', catalog])));

  const rows: JournalRow[] = [];
  let verify: JournalReport['verify'];
  const pairs = settings.pairs ?? PAIRS_DEFAULT;
  for (let pair = 0; pair < pairs; pair += 1) {
    for (const on of pair % 2 === 0 ? [true, false] : [false, true]) {
      rmSync(runDir, { recursive: true, force: true });
      cpSync(template, runDir, { recursive: true });
      const server = await bench.start(`engine, journal ${on ? 'on' : 'off'}`, args(on, runDir));
      try {
        const shift = await openShift(server.url, key);
        bench.say(`9. whole sale, journal ${on ? 'on' : 'off'}, pair ${pair + 1} (shift: ${shift}) …`);
        const before = { orders: orders(runDir), entries: orderEntries(runDir), cpu: cpuMs(server.pid) };
        // the machine's busy time beside this engine's: other work on a shared machine (the load generator's included)
        const split = startCpuSplit({ engines: [server.pid], loadPid: () => undefined });
        const { result, peakRssMb, stealPct } = await bench.load(server, { key, concert: CONCERT, voucher: VOUCHER, scenario: 'sale' });
        const machine = split.stop();
        const cpu = cpuMs(server.pid) - before.cpu;
        const made = orders(runDir) - before.orders;
        const row: JournalRow = {
          journal: on, pair, rps: result.rps, p50: result.latency.p50, p99: result.latency.p99, checkoutP50: result.steps.checkout?.p50 ?? Number.NaN,
          errors: result.non2xx + result.socketErrors + result.timeouts, orders: made, orderEntries: orderEntries(runDir) - before.entries,
          cpuMsPerSale: cpu / Math.max(1, made), peakRssMb, stealPct, otherCores: (machine.machineBusyMs - machine.engineMs) / machine.wallMs, shift, load: result,
        };
        rows.push(row);
        bench.say(`  ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors}, CPU ${row.cpuMsPerSale.toFixed(2)} ms per sale, ` +
          `${row.orders} orders, ${row.orderEntries} journal entries, other work ${row.otherCores.toFixed(2)} cores, CPU steal ${stealPct.toFixed(0)} %`);
        if (on && pair >= pairs - 2) verify = await verifyJournal(server.url, key);
      } finally {
        await bench.stop(server);
      }
    }
  }
  rmSync(runDir, { recursive: true, force: true });
  return summarize(rows, verify);
}

function summarize(rows: JournalRow[], verify: JournalReport['verify']): { report: JournalReport; target: Target } {
  const side = (on: boolean) => rows.filter((r) => r.journal === on);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const ratio = mean(side(true).map((r) => r.rps)) / mean(side(false).map((r) => r.rps));
  const pairRatios = [...new Set(rows.map((r) => r.pair))].map((pair) => {
    const of = (on: boolean) => rows.find((r) => r.pair === pair && r.journal === on)?.rps ?? Number.NaN;
    return of(true) / of(false);
  });
  const cpuMsPerSale = { on: mean(side(true).map((r) => r.cpuMsPerSale)), off: mean(side(false).map((r) => r.cpuMsPerSale)) };
  // the journal must really have been written on one side and not on the other, or the comparison says nothing
  const written = side(true).every((r) => r.orderEntries >= r.orders && r.orders > 0) && side(false).every((r) => r.orderEntries === 0);
  const errors = rows.reduce((n, r) => n + r.errors, 0);
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const target: Target = {
    what: `9. journalling: whole-sale req/s with the journal vs without (same run, alternated pairs, ${rows.every((r) => !r.shift.startsWith('none')) ? 'a shift open' : 'NO shift open'})`,
    goal: '≥ 90 %',
    measured: `${pct(ratio)} (${Math.round(mean(side(true).map((r) => r.rps)))} vs ${Math.round(mean(side(false).map((r) => r.rps)))} req/s; pairs ${pairRatios.map(pct).join(', ')}; ` +
      `CPU per sale ${cpuMsPerSale.on.toFixed(2)} vs ${cpuMsPerSale.off.toFixed(2)} ms)` +
      `${written ? '' : '; the journal was not written as expected'}${errors > 0 ? `; ${errors} failed requests` : ''}`,
    met: Number.isFinite(ratio) && ratio >= 0.9 && written && errors === 0,
  };
  return { report: { rows, ratio, pairRatios, cpuMsPerSale, ...(verify && { verify }) }, target };
}

/** Opens a shift (POST /shifts); answers its id, or why there is none when this build has no shifts (404 for the route). */
async function openShift(url: string, key: string): Promise<string> {
  const answer = await fetch(`${url}/api/v3/shifts`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-api-key': key },
    body: JSON.stringify({ openingFloat: { amount: 10_000, currency: 'EUR' }, staff: 'bench' }),
  });
  const text = await answer.text();
  if (answer.status === 404) return 'none (no POST /shifts in this build)';
  if (answer.status !== 201) throw new Error(`POST /shifts: ${answer.status} ${text}`);
  return (JSON.parse(text) as { data: { id: string } }).data.id;
}

async function verifyJournal(url: string, key: string): Promise<JournalReport['verify']> {
  const started = performance.now();
  const answer = await fetch(`${url}/api/v3/journal/verify`, { headers: { 'x-svc-api-key': key } });
  const text = await answer.text();
  const ms = performance.now() - started;
  if (answer.status === 404) return undefined;
  const data = (JSON.parse(text) as { data?: { ok?: boolean; entries?: number } }).data;
  return { ok: data?.ok === true, entries: data?.entries ?? Number.NaN, ms, answer: text.slice(0, 300) };
}

const orders = (dir: string) => countSince(dir, 'SELECT COUNT(*) AS n FROM orders');
/** the journal's `order` entries so far (NaN before the journal's migration) */
function orderEntries(dir: string): number {
  try {
    return countSince(dir, "SELECT COUNT(*) AS n FROM journal WHERE kind = 'order'");
  } catch {
    return Number.NaN;
  }
}
