import type { LoadResult } from './report';
import { fmt, int, pad } from './table-format';

/** Scenario 9's part of the bench report (bench/journal-cost.ts): its runs, the ratio, and its table. */

export interface JournalRow {
  journal: boolean; pair: number; rps: number; p50: number; p99: number; checkoutP50: number; errors: number;
  /** orders made during the run (warm-up included) and the journal's `order` entries written meanwhile */
  orders: number; orderEntries: number;
  cpuMsPerSale: number; peakRssMb: number; stealPct: number;
  /** cores the rest of the machine kept busy meanwhile (the load generator ~0.2–0.3 of them; more: other work) */
  otherCores: number;
  /** the shift opened before the load, or why none was (the shifts API is not in this build) */
  shift: string;
  load: LoadResult;
}

export interface JournalReport {
  rows: JournalRow[];
  /** mean req/s with the journal over the mean without */
  ratio: number;
  /** each pair's ratio, in pair order */
  pairRatios: number[];
  cpuMsPerSale: { on: number; off: number };
  /** GET /journal/verify on the last journalled engine after its run: its answer and how long it took */
  verify?: { ok: boolean; entries: number; ms: number; answer: string };
}

/** Scenario 9's runs and summary, as Markdown. */
export function journalTable(j: JournalReport): string {
  const head = ['run', 'req/s', 'p50 ms', 'p99 ms', 'checkout p50 ms', 'errors', 'orders', 'journal entries', 'CPU ms per sale', 'other work, cores', 'peak RSS MB', 'CPU steal'];
  const rows = j.rows.map((r) => [`journal ${r.journal ? 'on' : 'off'}, pair ${r.pair + 1}`, int(r.rps), fmt(r.p50, 2), fmt(r.p99, 2), fmt(r.checkoutP50, 2), String(r.errors),
    int(r.orders), Number.isFinite(r.orderEntries) ? int(r.orderEntries) : '–', fmt(r.cpuMsPerSale, 2), fmt(r.otherCores, 2), fmt(r.peakRssMb, 0), `${fmt(r.stealPct, 0)} %`]);
  const pct = (x: number) => `${fmt(100 * x, 1)} %`;
  const shifts = [...new Set(j.rows.map((r) => (r.shift.startsWith('none') ? r.shift : 'a shift open')))].join('; ');
  const lines = [
    '### 9. What journalling costs (issue #25): the whole sale with the journal and without, alternated pairs', '',
    pad([head, ...rows]), '',
    `With the journal: ${pct(j.ratio)} of the req/s without (pairs: ${j.pairRatios.map(pct).join(', ')}); CPU per sale ${fmt(j.cpuMsPerSale.on, 2)} vs ` +
      `${fmt(j.cpuMsPerSale.off, 2)} ms (${j.cpuMsPerSale.on >= j.cpuMsPerSale.off ? '+' : ''}${pct(j.cpuMsPerSale.on / j.cpuMsPerSale.off - 1)}). Shift: ${shifts}.`,
  ];
  if (j.verify) lines.push(`GET /journal/verify after the last journalled run: ok ${j.verify.ok}, ${int(j.verify.entries)} entries, ${fmt(j.verify.ms, 0)} ms.`);
  return lines.join('\n');
}
