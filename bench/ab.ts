import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { benchCatalog, CONCERT, VOUCHER } from './catalog';
import type { LoadResult } from './report';
import { startCpuSplit } from './cpu-split';
import { ENGINE_PROCESS_FLAGS } from '../engine/cli/v8-flags';

/**
 * `node --import tsx bench/ab.ts --variant NAME=ROOT[::ARG …] …`: one scenario (default the whole sale) on two or
 * more builds of the engine, taking turns, so that every variant meets the shared machine in the same state. ROOT
 * is a source tree (this one, or `git archive COMMIT | tar -x` with node_modules linked in); its bundle is built
 * there (engine/cli/bundle.mjs) and its own `keys create` makes the key, so each variant runs its own migrations.
 * Every run starts its variant's engine on a fresh copy of that variant's database as the catalog import left it.
 * Per run: req/s, steps' p50, the engine's CPU time per sale (user + system over the measured window, after the
 * warm-up, over the orders made in it), peak RSS, the machine's CPU steal. `--cpu-prof` writes a profile of every engine into
 * bench/results/profiles/. Options: --rounds N, --scenario NAME (bench/load.mjs), --warmup S, --duration S,
 * --connections N, --callgrind (instructions per sale under valgrind: slow, but blind to other work on the machine), --node-arg ARG (a flag for the engine's node, e.g. `--require=FILE`), --out FILE (the JSON). A tool for finding out where a change in `npm run bench` came from.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    variant: { type: 'string', multiple: true, default: [] },
    rounds: { type: 'string', default: '4' },
    scenario: { type: 'string', default: 'sale' },
    warmup: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    'cpu-prof': { type: 'boolean', default: false },
    'node-arg': { type: 'string', multiple: true, default: [] },
    callgrind: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

interface Variant { readonly name: string; readonly root: string; readonly extra: readonly string[]; template: string; key: string }
interface Run {
  variant: string; round: number; pid: number; rps: number; steps: Record<string, number>; sales: number; cpuMsPerSale: number;
  peakRssMb: number; stealPct: number; errors: number; loadAverage: number;
  /** cores kept busy during the run by everything but this engine and its load generator (other work on the machine) */
  othersCores: number;
  /** `--callgrind`: instructions the engine executed per sale in the measured window (machine load does not move it) */
  instructionsPerSale: number;
}

const work = mkdtempSync(join(tmpdir(), 'kassa-ab-'));
const children = new Set<ChildProcess>();
const say = (line: string) => process.stderr.write(`${line}\n`);

function parseVariant(spec: string): Variant {
  const [head = '', ...rest] = spec.split('::');
  const at = head.indexOf('=');
  if (at < 1) throw new Error(`--variant NAME=ROOT[::ARG …], not ${spec}`);
  return { name: head.slice(0, at), root: resolve(head.slice(at + 1)), extra: rest.join('::').split(' ').filter(Boolean), template: '', key: '' };
}

function run(cmd: string, args: readonly string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

interface Server { proc: ChildProcess; pid: number; url: string }

/** `--callgrind`: the engine runs under valgrind's callgrind, counting instructions only in the measured window */
const CALLGRIND = ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(work, 'callgrind.%p')}`];

function start(variant: Variant, data: string, extra: readonly string[] = [], measured = false): Promise<Server> {
  const node = [process.execPath, ...(opts['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'bench', 'results', 'profiles')}`] : [])];
  const command = [...(measured && opts.callgrind ? CALLGRIND : []), ...node,
    ...opts['node-arg'], ...ENGINE_PROCESS_FLAGS, '--enable-source-maps', join(variant.root, 'dist', 'engine', 'serve.mjs'),
    '--port', '0', '--data', data, '--rate-limit', '0', '--no-demo', '--hold-seconds', '3600', '--log-level', 'warn', ...variant.extra, ...extra,
  ];
  return new Promise((done, fail) => {
    const [program = '', ...args] = command;
    const proc = spawn(program, args, { cwd: variant.root, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(proc);
    let out = '';
    let err = '';
    proc.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1] && proc.pid !== undefined) done({ proc, pid: proc.pid, url: match[1] });
    });
    proc.on('exit', (code) => fail(new Error(`${variant.name} exited ${code}\n${err.slice(-2000)}`)));
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((done) => {
    server.proc.removeAllListeners('exit');
    server.proc.on('exit', () => {
      children.delete(server.proc);
      done();
    });
    server.proc.kill('SIGTERM');
  });
}

function ticks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
function rss(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;
}
function machine(): { total: number; steal: number } {
  const fields = (/^cpu\s+(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? '').trim().split(/\s+/).map(Number);
  return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7] ?? Number.NaN };
}
function orders(data: string): number {
  const db = new Database(join(data, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function load(plan: Record<string, unknown>, spawned: (pid: number) => void): Promise<LoadResult> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, [join(ROOT, 'bench', 'load.mjs'), JSON.stringify(plan)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(proc);
    if (proc.pid !== undefined) spawned(proc.pid);
    let out = '';
    proc.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', (code) => {
      children.delete(proc);
      if (code !== 0) fail(new Error(`load.mjs exited ${code}`));
      else done(JSON.parse(out) as LoadResult);
    });
  });
}

/** Builds the variant's bundle, makes its key and its database with the bench catalog imported. */
async function prepare(variant: Variant, catalogFile: string): Promise<void> {
  say(`${variant.name}: building ${variant.root} …`);
  run(process.execPath, ['engine/cli/bundle.mjs'], variant.root);
  variant.template = join(work, `${variant.name}-template`);
  const out = run(process.execPath, ['--import', 'tsx', 'engine/cli/keys.ts', 'create', '--data', variant.template, '--name', 'bench', '--scopes', 'admin'], variant.root);
  variant.key = out.trim().split('\n').pop() ?? '';
  const server = await start(variant, variant.template, ['--catalog', catalogFile]);
  await stop(server);
}

async function measure(variant: Variant, round: number): Promise<Run> {
  const data = join(work, `${variant.name}-run`);
  rmSync(data, { recursive: true, force: true });
  cpSync(variant.template, data, { recursive: true });
  const server = await start(variant, data, [], true);
  try {
    const before = { ticks: ticks(server.pid), orders: orders(data), machine: machine() };
    let peak = rss(server.pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rss(server.pid))), 100);
    let loadPid: number | undefined;
    const split = startCpuSplit({ engines: [server.pid], loadPid: () => loadPid });
    // the CPU time per sale of the measured window only (after the warm-up: the first requests compile schemas)
    let measured = before;
    const warmedUp = setTimeout(() => {
      if (opts.callgrind) run('callgrind_control', ['-i', 'on', String(server.pid)], ROOT);
      measured = { ticks: ticks(server.pid), orders: orders(data), machine: machine() };
    }, Number(opts.warmup) * 1000 + 150);
    const result = await load({
      url: server.url, key: variant.key, concert: CONCERT, voucher: VOUCHER, scenario: opts.scenario,
      warmup: Number(opts.warmup), duration: Number(opts.duration), connections: Number(opts.connections),
    }, (pid) => (loadPid = pid)).finally(() => {
      clearInterval(sampler);
      clearTimeout(warmedUp);
    });
    const cpu = split.stop();
    const instructions = opts.callgrind ? callgrindTotal(server.pid) : Number.NaN;
    const cpuMs = (ticks(server.pid) - measured.ticks) * 10;
    const sales = orders(data) - measured.orders;
    const m = machine();
    return {
      variant: variant.name, round, pid: server.pid, rps: result.rps, steps: Object.fromEntries(Object.entries(result.steps).map(([k, v]) => [k, v.p50])),
      sales, cpuMsPerSale: cpuMs / Math.max(1, sales), peakRssMb: peak, stealPct: (100 * (m.steal - before.machine.steal)) / (m.total - before.machine.total),
      errors: result.non2xx + result.socketErrors + result.timeouts, loadAverage: loadavg()[0] ?? Number.NaN,
      othersCores: (cpu.machineBusyMs - cpu.engineMs - cpu.loadMs) / cpu.wallMs,
      instructionsPerSale: instructions / Math.max(1, sales),
    };
  } finally {
    await stop(server);
  }
}

/** Dumps the engine's callgrind counters (collected since the window opened) and answers their instruction total. */
function callgrindTotal(pid: number): number {
  run('callgrind_control', ['-d', String(pid)], ROOT);
  const files = readdirSync(work).filter((name) => name.startsWith(`callgrind.${pid}`)).sort();
  const text = files.map((name) => readFileSync(join(work, name), 'utf8')).join('\n');
  return [...text.matchAll(/^(?:summary|totals): (\d+)/gm)].reduce((max, m) => Math.max(max, Number(m[1])), 0);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[s.length >> 1] ?? Number.NaN) : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const variants = opts.variant.map(parseVariant);
  if (variants.length < 1) throw new Error('at least one --variant NAME=ROOT');
  const catalogFile = join(work, 'catalog.json');
  writeFileSync(catalogFile, JSON.stringify(benchCatalog()));
  if (opts['cpu-prof']) mkdirSync(join(ROOT, 'bench', 'results', 'profiles'), { recursive: true });
  for (const variant of variants) await prepare(variant, catalogFile);
  const runs: Run[] = [];
  for (let round = 0; round < Number(opts.rounds); round += 1) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const r = await measure(variant, round + 1);
      runs.push(r);
      say(`round ${r.round} ${r.variant.padEnd(12)} ${r.rps.toFixed(0).padStart(6)} req/s  ${Object.entries(r.steps).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}  ` +
        `CPU ${r.cpuMsPerSale.toFixed(2)} ms/sale (${r.sales} sales)${opts.callgrind ? `  ${(r.instructionsPerSale / 1e6).toFixed(2)} M instructions/sale` : ''}  RSS ${r.peakRssMb.toFixed(0)} MB  steal ${r.stealPct.toFixed(1)} %  errors ${r.errors}  others ${r.othersCores.toFixed(2)} cores  pid ${r.pid}`);
    }
  }
  for (const variant of variants) {
    const mine = runs.filter((r) => r.variant === variant.name);
    say(`${variant.name.padEnd(12)} median ${median(mine.map((r) => r.rps)).toFixed(0)} req/s, CPU ${median(mine.map((r) => r.cpuMsPerSale)).toFixed(2)} ms/sale, ` +
      `${opts.callgrind ? `${(median(mine.map((r) => r.instructionsPerSale)) / 1e6).toFixed(3)} M instructions/sale, ` : ''}` +
      `peak RSS ${Math.max(...mine.map((r) => r.peakRssMb)).toFixed(0)} MB`);
  }
  if (opts.out) writeFileSync(opts.out, `${JSON.stringify({ variants: variants.map(({ name, root, extra }) => ({ name, root, extra })), opts, runs }, null, 2)}\n`);
}

try {
  await main();
} finally {
  for (const proc of children) proc.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
