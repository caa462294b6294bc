import { EngineError } from '../domain/errors';
import type { Shift } from '../contract/shift';
import type { Storage } from '../shared/context';
import { shiftView } from './shift-view';

/** GET /shifts/current (contract §14): the open shift, or 404 RESOURCE_NOT_FOUND. */
export async function currentShift(ctx: Storage): Promise<Shift> {
  const shift = await ctx.store.repos.shifts.current();
  if (!shift) throw new EngineError('RESOURCE_NOT_FOUND', { details: { reason: 'no_open_shift' } });
  return shiftView(shift);
}

/** GET /shifts/{id}: one shift, open or closed; 404 RESOURCE_NOT_FOUND. */
export async function readShift(ctx: Storage, shiftId: string): Promise<Shift> {
  const shift = await ctx.store.repos.shifts.get(shiftId);
  if (!shift) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'shiftId' });
  return shiftView(shift);
}

/**
 * GET /shifts?limit=&cursor= (contract §14): this engine's shifts, newest first (by number), 50 a page unless
 * `limit` says otherwise (1–200), pages joined by the opaque `nextCursor`.
 */
export async function listShifts(ctx: Storage, query: { limit?: string; cursor?: string }): Promise<{ data: Shift[]; nextCursor?: string }> {
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await ctx.store.repos.shifts.page(limit + 1, before);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(shiftView),
    ...(rows.length > limit && last && { nextCursor: Buffer.from(JSON.stringify({ before: last.number })).toString('base64url') }),
  };
}

function decodeCursor(cursor: string): number {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'before' in parsed && Number.isSafeInteger(parsed.before)) return Number(parsed.before);
  } catch {
    // any cursor that does not decode is the client's mistake: answered below
  }
  throw new EngineError('INVALID_FIELD_VALUE', { param: 'cursor', details: { reason: 'unknown_cursor' } });
}
