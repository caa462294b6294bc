/** Formatting shared by the bench's Markdown tables (bench/report.ts, bench/hub-report.ts). */

/** a number with `digits` decimals, '–' when there is none */
export const fmt = (x: number | undefined, digits = 1) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
/** a whole number with thousands separators */
export const int = (x: number) => Math.round(x).toLocaleString('en-US');
/** a percentage (already × 100), '–' when there is none */
export const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(0)} %`);

/** rows of cells as a Markdown table, the first row its head; columns after the first right-aligned */
export function pad(cells: string[][]): string {
  const widths = cells[0]?.map((_, c) => Math.max(...cells.map((row) => row[c]?.length ?? 0))) ?? [];
  const line = (row: string[]) => `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join(' | ')} |`;
  const [head, ...body] = cells;
  if (!head) return '';
  return [line(head), `|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
}
