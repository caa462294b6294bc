import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scope } from '../engine/domain/scopes';
import { CONCERT } from './catalog';
import type { CheckinReport, CheckinRow } from './checkin-report';
import type { LoadResult, Target } from './report';
import { concertCatalog } from './terminal-sale';
import { countSince, cpuMs, createKeys, waitForHand } from './terminal-probes';

/**
 * Scenario 10, "check-in at the door" (issue #26, contract §15): `POST /checkins` of distinct tickets, each
 * admitted once, half of them by their signed code (`K1.…`) and half by the 20-character code, alternating —
 * (a) at a gate deciding alone: a standalone engine (no upstream), which decides as a terminal does while
 * offline (the same use case and the same one short transaction; docs/notes-bench-checkins.md says why that is
 * the equivalent); (b) at a gate terminal online: a terminal process of a hub process, whose every check-in is
 * relayed to the hub within the request (the hub decides, the terminal records the answer). Tickets are sold in
 * the setup through the API (not measured) on the engine that decides: the standalone engine, and the hub. Runs
 * alternate between the sides — one scanner (1 connection: the answer time a door sees), then several scanners
 * at once (throughput) — so that both meet the shared machine in the same state. Afterwards SQL on the data files
 * proves what happened: every ticket admitted once, and at (b) every check-in decided by the hub.
 */

interface Running { readonly url: string; readonly pid: number }

export interface CheckinBench<S extends Running> {
  start(name: string, args: readonly string[]): Promise<S>;
  stop(server: S): Promise<void>;
  load(server: S, plan: Record<string, unknown>): Promise<{ result: LoadResult; peakRssMb: number; stealPct: number }>;
  /** the arguments of an engine `serve` process on `dataDir`, as every engine run of the bench has them */
  engineArgs(dataDir: string, extra: readonly string[]): string[];
  say(line: string): void;
}

export interface CheckinSettings {
  /** connections of the throughput runs (several scanners at one gate engine) */
  readonly connections: number;
  /** check-ins measured per run (after the warm-up's) */
  readonly checkins: number;
  /** check-ins of each run's warm-up, not measured */
  readonly warmup: number;
}

/** The p99 a check-in must answer within at a gate (issue #26). */
export const CHECKIN_P99_GOAL_MS = 50;
/** Tickets per order sold in the setup (a cart line's maximum). */
const TICKETS_PER_ORDER = 100;
const GATE_SCOPES: Scope[] = ['checkin'];
/** The scopes a terminal's key has at its hub (as the sync tests give it); `orders:import` covers the check-in relay. */
const TERMINAL_SCOPES: Scope[] = ['catalog:read', 'carts:write', 'orders:write', 'orders:import'];

type Side = 'alone' | 'hub';
interface Ticket { code: string; kind: 'signed' | '20-char' }

export async function checkinScenario<S extends Running>(bench: CheckinBench<S>, work: string, settings: CheckinSettings): Promise<{ report: CheckinReport; targets: Target[] }> {
  const dirs = { alone: join(work, 'c-standalone'), hub: join(work, 'c-hub'), terminal: join(work, 'c-terminal') };
  const catalogPath = join(work, 'c-catalog.json');
  writeFileSync(catalogPath, JSON.stringify(concertCatalog()));
  const [aloneAdmin, aloneGate] = createKeys(dirs.alone, [{ name: 'bench', scopes: ['admin'] }, { name: 'gate', scopes: GATE_SCOPES }]);
  const [hubAdmin, terminalAtHub] = createKeys(dirs.hub, [{ name: 'bench', scopes: ['admin'] }, { name: 'terminal', scopes: TERMINAL_SCOPES }]);
  const [terminalAdmin, terminalGate] = createKeys(dirs.terminal, [{ name: 'bench', scopes: ['admin'] }, { name: 'gate', scopes: GATE_SCOPES }]);
  if (!aloneAdmin || !aloneGate || !hubAdmin || !terminalAtHub || !terminalAdmin || !terminalGate) throw new Error('check-in scenario: keys not made');
  const keyFile = join(work, 'c-terminal.key');
  writeFileSync(keyFile, `${terminalAtHub.key}\n`, { mode: 0o600 });

  const running: S[] = [];
  const start = async (name: string, args: readonly string[]) => {
    const server = await bench.start(name, args);
    running.push(server);
    return server;
  };
  try {
    const alone = await start('standalone engine', bench.engineArgs(dirs.alone, ['--catalog', catalogPath]));
    const hub = await start('hub', bench.engineArgs(dirs.hub, ['--catalog', catalogPath]));
    // Tickets first, then the terminal: its first pull learns the hub's ticket keys (and no allocation: it sells nothing).
    const runs = [1, settings.connections];
    const need = runs.length * (settings.checkins + settings.warmup);
    bench.say(`check-in scenario: selling ${need.toLocaleString('en-US')} tickets on the standalone engine and on the hub …`);
    const sold = { alone: await sell(alone.url, aloneAdmin.key, need), hub: await sell(hub.url, hubAdmin.key, need) };
    const terminal = await start('gate terminal', bench.engineArgs(dirs.terminal,
      ['--catalog', catalogPath, '--upstream', hub.url, '--upstream-key-file', keyFile, '--allocation', '0']));
    await waitForHand(terminal, terminalAdmin.key, (h) => h.mode === 'hub' && h.online, 'hub detected');
    const learned = await terminalKnowsHubKeys(terminal.url, terminalGate.key, hub.url, hubAdmin.key);
    if (learned === false) bench.say("  the gate terminal has not learned the hub's ticket keys within 15 s: online the hub decides, so the runs go on");
    bench.say(`  standalone ${alone.url}, hub ${hub.url}, gate terminal ${terminal.url}; ` +
      `${sold.alone.filter((t) => t.kind === 'signed').length.toLocaleString('en-US')} of ${need.toLocaleString('en-US')} tickets have a signed code`);

    const rows: CheckinRow[] = [];
    const slice = { alone: 0, hub: 0 };
    for (const [n, connections] of runs.entries()) {
      for (const side of (n % 2 === 0 ? ['alone', 'hub'] : ['hub', 'alone']) satisfies Side[]) {
        const from = slice[side];
        slice[side] += settings.checkins + settings.warmup;
        const tickets = sold[side].slice(from, slice[side]);
        const codesFile = join(work, `c-codes-${side}-${n}.json`);
        writeFileSync(codesFile, JSON.stringify(tickets));
        const server = side === 'alone' ? alone : terminal;
        const title = `${side === 'alone' ? 'check-ins/s offline (standalone engine)' : 'check-ins/s through the hub (gate terminal online)'}, ${connections} connection${connections === 1 ? '' : 's'}`;
        bench.say(`10. ${title} …`);
        const before = { cpu: cpuMs(server.pid), hubCpu: cpuMs(hub.pid) };
        const { result, peakRssMb, stealPct } = await bench.load(server, {
          key: side === 'alone' ? aloneGate.key : terminalGate.key, scenario: 'checkin', codesFile, warmupCheckins: settings.warmup,
          occurrenceId: CONCERT.occurrenceId, gate: `bench-${side}`, connections,
        });
        const step = (kind: Ticket['kind']) => ({ p50: result.steps[`check in, ${kind}`]?.p50 ?? Number.NaN, p99: result.steps[`check in, ${kind}`]?.p99 ?? Number.NaN });
        const row: CheckinRow = {
          side, title, connections, checkins: result.requests, rps: result.rps, p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99,
          signed: step('signed'), plain: step('20-char'), errors: result.non2xx + result.socketErrors + result.timeouts,
          cpuMsPerCheckin: (cpuMs(server.pid) - before.cpu) / tickets.length, peakRssMb, stealPct,
          ...(side === 'hub' && { hubCpuMsPerCheckin: (cpuMs(hub.pid) - before.hubCpu) / tickets.length }), load: result,
        };
        rows.push(row);
        bench.say(`  ${row.rps.toFixed(0)} check-ins/s, p50 ${row.p50} ms, p99 ${row.p99} ms (signed ${row.signed.p50} / ${row.signed.p99}, ` +
          `20-char ${row.plain.p50} / ${row.plain.p99}), errors ${row.errors}, CPU ${row.cpuMsPerCheckin.toFixed(2)} ms per check-in, CPU steal ${stealPct.toFixed(0)} %`);
      }
    }
    const proof = prove(dirs, slice);
    bench.say(`  proof: ${JSON.stringify(proof)}`);
    const signedShare = sold.alone.filter((t) => t.kind === 'signed').length / Math.max(1, sold.alone.length);
    return { report: { rows, proof, signedShare, ...(learned !== undefined && { terminalKnowsHubKeys: learned }) }, targets: targetsOf(rows, proof) };
  } finally {
    // The terminal first: it stops cleanly while its hub still answers.
    for (const server of [...running].reverse()) await bench.stop(server);
  }
}

/**
 * Sells `count` standing tickets of the concert through the API (carts of up to 100, paid by card), and answers
 * them in the order sold, alternately by their signed code and by their 20-character code (a ticket without a
 * signed code — an engine without signing — by its code).
 */
async function sell(url: string, key: string, count: number): Promise<Ticket[]> {
  const tickets: Ticket[] = [];
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${url}/api/v3${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-api-key': key, ...headers }, body: JSON.stringify(body) });
    const text = await answer.text();
    if (answer.status !== 201) throw new Error(`check-in scenario: POST ${path}: ${answer.status} ${text.slice(0, 500)}`);
    return (JSON.parse(text) as { data: unknown }).data;
  };
  while (tickets.length < count) {
    const quantity = Math.min(TICKETS_PER_ORDER, count - tickets.length);
    const cart = (await post('/carts', { items: [{ occurrenceId: CONCERT.occurrenceId, inventoryItemId: CONCERT.inventoryItemId, priceOptionId: CONCERT.priceOptionId, quantity }] })) as { id: string; total: unknown };
    const order = (await post('/orders', { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': randomUUID() })) as
      { tickets: { code: string; signedCode?: string }[] };
    for (const t of order.tickets) {
      const signed = tickets.length % 2 === 0 && t.signedCode !== undefined;
      tickets.push(signed && t.signedCode ? { code: t.signedCode, kind: 'signed' } : { code: t.code, kind: '20-char' });
    }
  }
  return tickets.slice(0, count);
}

/**
 * Waits (up to 15 s) until the terminal lists every ticket key of its hub — its pull learns them — as a gate that
 * could verify the hub's signed codes offline too; answers whether it does. Online the hub decides, so the runs do
 * not depend on it. A build without signed codes (no `GET /ticket-keys`) has nothing to wait for (undefined).
 */
async function terminalKnowsHubKeys(terminalUrl: string, gateKey: string, hubUrl: string, hubKey: string): Promise<boolean | undefined> {
  const ids = async (url: string, key: string) => {
    const answer = await fetch(`${url}/api/v3/ticket-keys`, { headers: { 'x-svc-api-key': key } });
    if (answer.status === 404) return undefined;
    if (!answer.ok) throw new Error(`GET /ticket-keys: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { data: { keyId: string }[] }).data.map((k) => k.keyId);
  };
  const wanted = await ids(hubUrl, hubKey);
  if (wanted === undefined) return undefined;
  const deadline = performance.now() + 15_000;
  for (;;) {
    const known = new Set(await ids(terminalUrl, gateKey) ?? []);
    if (wanted.every((id) => known.has(id))) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export type CheckinProof = CheckinReport['proof'];

/** SQL on the data files after the runs: what each engine stored. */
function prove(dirs: { alone: string; hub: string; terminal: string }, sent: { alone: number; hub: number }): CheckinProof {
  const count = (dir: string, sql: string) => countSince(dir, sql);
  const proof = {
    sent,
    alone: { checkins: count(dirs.alone, "SELECT COUNT(*) AS n FROM checkins WHERE direction = 'in'"), inside: count(dirs.alone, 'SELECT COUNT(*) AS n FROM ticket_presence WHERE inside = 1') },
    hub: {
      fromTerminal: count(dirs.hub, "SELECT COUNT(*) AS n FROM checkins WHERE direction = 'in' AND source IS NOT NULL"),
      inside: count(dirs.hub, 'SELECT COUNT(*) AS n FROM ticket_presence WHERE inside = 1'),
    },
    terminal: {
      checkins: count(dirs.terminal, "SELECT COUNT(*) AS n FROM checkins WHERE direction = 'in'"),
      decidedLocally: count(dirs.terminal, 'SELECT COUNT(*) AS n FROM checkins WHERE synced = 0'),
    },
  };
  const ok = proof.alone.checkins === sent.alone && proof.alone.inside === sent.alone && proof.hub.fromTerminal === sent.hub && proof.hub.inside === sent.hub &&
    proof.terminal.checkins === sent.hub && proof.terminal.decidedLocally === 0;
  return { ...proof, ok };
}

function targetsOf(rows: CheckinRow[], proof: CheckinProof): Target[] {
  const p99 = (side: Side, one: boolean) => {
    const of = rows.filter((r) => r.side === side && (r.connections === 1) === one);
    return of.length === 0 ? Number.NaN : Math.max(...of.map((r) => r.p99));
  };
  const errors = (side: Side) => rows.filter((r) => r.side === side).reduce((n, r) => n + r.errors, 0);
  const many = rows.find((r) => r.connections > 1)?.connections ?? 0;
  const target = (side: Side, what: string): Target => {
    const one = p99(side, true);
    return {
      what: `10. check-in p99, ${what}, 1 connection (one scanner)`,
      goal: `< ${CHECKIN_P99_GOAL_MS} ms`,
      measured: `${one.toFixed(1)} ms (${many} connections at once: ${p99(side, false).toFixed(1)} ms)${errors(side) > 0 ? `; ${errors(side)} failed check-ins` : ''}`,
      met: one < CHECKIN_P99_GOAL_MS && errors(side) === 0,
    };
  };
  return [
    target('alone', 'a gate deciding alone (standalone engine = terminal offline)'),
    target('hub', 'a gate terminal online, relayed to the hub within the request'),
    {
      what: '10. check-in: every ticket admitted once, every online check-in decided by the hub (SQL)',
      goal: 'all',
      measured: `alone ${proof.alone.checkins} / ${proof.sent.alone}; hub ${proof.hub.fromTerminal} / ${proof.sent.hub} from the terminal, ${proof.terminal.decidedLocally} decided locally`,
      met: proof.ok,
    },
  ];
}
