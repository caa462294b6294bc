import type { LoadResult } from './report';
import { fmt, int, pad } from './table-format';

/** Scenario 10's part of the bench report (bench/checkins.ts): its runs, what SQL found afterwards, and its table. */

export interface CheckinRow {
  /** 'alone': a gate deciding alone (a standalone engine); 'hub': a gate terminal online, each check-in relayed to its hub */
  side: 'alone' | 'hub';
  title: string;
  connections: number;
  /** check-ins measured (after the warm-up) */
  checkins: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  /** latencies of the check-ins by signed code and by 20-character code */
  signed: { p50: number; p99: number };
  plain: { p50: number; p99: number };
  /** answers other than 201, socket errors and timeouts */
  errors: number;
  /** CPU time (user + system) of the engine the gate talks to, per check-in (warm-up included) */
  cpuMsPerCheckin: number;
  /** at 'hub': the hub process's CPU time per check-in */
  hubCpuMsPerCheckin?: number;
  peakRssMb: number;
  stealPct: number;
  load: LoadResult;
}

export interface CheckinReport {
  rows: CheckinRow[];
  /** share of the tickets checked in by their signed code (the rest by the 20-character code) */
  signedShare: number;
  /** whether the gate terminal had learned the hub's ticket keys before the runs (absent: a build without signed codes) */
  terminalKnowsHubKeys?: boolean;
  proof: {
    /** tickets sent per side (warm-up included) */
    sent: { alone: number; hub: number };
    alone: { checkins: number; inside: number };
    hub: { fromTerminal: number; inside: number };
    terminal: { checkins: number; decidedLocally: number };
    ok: boolean;
  };
}

/** Scenario 10's runs and proof, as Markdown. */
export function checkinTable(c: CheckinReport): string {
  const head = ['run', 'conns', 'check-ins', 'check-ins/s', 'p50 ms', 'p90 ms', 'p99 ms', 'signed p50 / p99 ms', '20-char p50 / p99 ms', 'errors',
    'CPU ms per check-in', 'hub CPU ms per check-in', 'peak RSS MB', 'CPU steal'];
  const rows = c.rows.map((r) => [r.title, String(r.connections), int(r.checkins), int(r.rps), fmt(r.p50, 2), fmt(r.p90, 2), fmt(r.p99, 2),
    `${fmt(r.signed.p50, 2)} / ${fmt(r.signed.p99, 2)}`, `${fmt(r.plain.p50, 2)} / ${fmt(r.plain.p99, 2)}`, String(r.errors), fmt(r.cpuMsPerCheckin, 2),
    fmt(r.hubCpuMsPerCheckin, 2), fmt(r.peakRssMb, 0), `${fmt(r.stealPct, 0)} %`]);
  const p = c.proof;
  return [
    '### 10. Check-in at the door (issue #26): distinct tickets, each admitted once', '',
    pad([head, ...rows]), '',
    `Codes: ${fmt(100 * c.signedShare, 0)} % signed, the rest 20-character${c.terminalKnowsHubKeys === undefined ? '' : `; the gate terminal ${c.terminalKnowsHubKeys ? 'knew' : 'had NOT learned'} the hub's ticket keys`}. SQL afterwards: standalone ${int(p.alone.checkins)} check-ins, ${int(p.alone.inside)} inside ` +
      `(sent ${int(p.sent.alone)}); hub ${int(p.hub.fromTerminal)} check-ins from the terminal, ${int(p.hub.inside)} inside (sent ${int(p.sent.hub)}); ` +
      `terminal ${int(p.terminal.checkins)} recorded, ${int(p.terminal.decidedLocally)} decided locally: ${p.ok ? 'PROVEN' : 'FAILED'}.`,
  ].join('\n');
}
