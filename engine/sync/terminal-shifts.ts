import { EngineError } from '../domain/errors';
import type { WireJournalEntry } from '../contract/hub-journal';
import { grants, type Caller } from '../domain/scopes';
import type { Storage } from '../shared/context';
import type { ShiftPosition, TerminalShiftClosing, TerminalShiftOpening, TerminalShiftRow } from '../store/terminal-journal-repo';

/**
 * A hub's list of its terminals' shifts (GET /shifts?terminal=, contract §14), derived from their journals: a
 * `shiftOpened` entry (ref = shift id, amount = opening float, data `{ shiftId, number, staff }`) makes a shift, its
 * `shiftClosed` entry (amount = counted, data `{ shiftId, zNumber, expected, counted, difference, note, report }`)
 * closes it with its Z report. An entry whose data lacks what a shift needs stays in the journal and makes no row.
 */

type Money = { amount: number; currency: string };

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : undefined;

function moneyOf(value: unknown): Money | undefined {
  const money = record(value);
  return money && typeof money.amount === 'number' && typeof money.currency === 'string' ? { amount: money.amount, currency: money.currency } : undefined;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const shiftIdOf = (entry: WireJournalEntry): string => text(entry.data.shiftId) ?? entry.ref;

/** The shift a `shiftOpened` entry opens; undefined for any other entry. */
export function shiftOpeningOf(entry: WireJournalEntry): TerminalShiftOpening | undefined {
  if (entry.kind !== 'shiftOpened' || !entry.amount || typeof entry.data.number !== 'number') return undefined;
  return {
    id: shiftIdOf(entry),
    number: entry.data.number,
    openedAt: entry.at,
    openingFloat: entry.amount.amount,
    currency: entry.amount.currency,
    staff: text(entry.data.staff),
  };
}

/** The closing a `shiftClosed` entry records; undefined for any other entry. */
export function shiftClosingOf(entry: WireJournalEntry): TerminalShiftClosing | undefined {
  if (entry.kind !== 'shiftClosed') return undefined;
  const { zNumber, report } = entry.data;
  const expected = moneyOf(entry.data.expected);
  const counted = moneyOf(entry.data.counted) ?? entry.amount;
  const difference = moneyOf(entry.data.difference);
  if (typeof zNumber !== 'number' || !expected || !counted || !difference) return undefined;
  return {
    id: shiftIdOf(entry),
    closedAt: entry.at,
    zNumber,
    expected: expected.amount,
    counted: counted.amount,
    difference: difference.amount,
    note: text(entry.data.note),
    report: JSON.stringify(report ?? null),
  };
}

/** One terminal shift as GET /shifts?terminal= lists it: the shift's own shape (absent fields left out), its terminal, and a closed one's Z report. */
export function terminalShiftView(row: TerminalShiftRow) {
  const money = (amount: number) => ({ amount, currency: row.currency });
  const report: unknown = row.report === null ? undefined : JSON.parse(row.report);
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    openedAt: row.openedAt,
    openingFloat: money(row.openingFloat),
    ...(row.staff !== null && { staff: row.staff }),
    ...(row.closedAt !== null && { closedAt: row.closedAt }),
    ...(row.zNumber !== null && { zNumber: row.zNumber }),
    ...(row.expected !== null && { expected: money(row.expected) }),
    ...(row.counted !== null && { counted: money(row.counted) }),
    ...(row.difference !== null && { difference: money(row.difference) }),
    ...(row.note !== null && { note: row.note }),
    terminal: row.keyId,
    ...(report !== undefined && report !== null && { report }),
  };
}
export type TerminalShiftView = ReturnType<typeof terminalShiftView>;

/**
 * Shifts newest first (by opening time): of one terminal (`terminal` = its key owner), or of every terminal
 * (`all`). `cursor` continues a page (`nextCursor` of the one before). A caller without `orders:any` (a terminal's
 * own key) sees its own terminal's shifts only, as it sees only its own orders: `all` is its own, another's none.
 */
export async function listTerminalShifts(ctx: Storage, caller: Caller, terminal: string, limit: number, cursor?: string): Promise<{ data: TerminalShiftView[]; nextCursor?: string }> {
  const from = cursor === undefined ? undefined : decodePosition(cursor);
  const seen = grants(caller.scopes, 'orders:any') ? terminal : terminal === 'all' || terminal === caller.owner ? caller.owner : undefined;
  if (seen === undefined) return { data: [] };
  const rows = await ctx.store.repos.terminalJournals.shifts(seen === 'all' ? null : seen, limit + 1, from);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(terminalShiftView),
    ...(rows.length > limit && last && { nextCursor: encodePosition({ openedAt: last.openedAt, keyId: last.keyId, id: last.id }) }),
  };
}

const encodePosition = (position: ShiftPosition): string => Buffer.from(JSON.stringify([position.openedAt, position.keyId, position.id])).toString('base64url');

function decodePosition(cursor: string): ShiftPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 3 && parsed.every((part) => typeof part === 'string')) {
      const [openedAt, keyId, id] = parsed.map(String);
      if (openedAt !== undefined && keyId !== undefined && id !== undefined) return { openedAt, keyId, id };
    }
  } catch {
    // any cursor that does not decode is the client's mistake (below)
  }
  throw new EngineError('INVALID_FIELD_VALUE', { param: 'cursor', details: { reason: 'unknown_cursor' } });
}
