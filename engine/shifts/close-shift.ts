import { EngineError } from '../domain/errors';
import type { CloseShiftBody, Shift, ShiftReport } from '../contract/shift';
import type { Clock, Storage } from '../shared/context';
import { appendJournal } from '../journal/append';
import { assertWellFormed } from './well-formed';
import { assertShiftCurrency } from './base-currency';
import { shiftFiguresIn } from './report';
import { shiftView } from './shift-view';

/**
 * POST /shifts/{id}/close (contract §14): the counted cash against the expected, the Z number (1, 2, 3 … per
 * engine without gaps: the highest so far + 1, decided under the journal head's lock, so two closes — also of two
 * processes — never share or skip one), and the Z report frozen into the shift row and into the `shiftClosed`
 * journal entry, all in one transaction. Closing again: 409 SHIFT_CLOSED; unknown: 404; counted in another
 * currency: 400 INVALID_FIELD_VALUE (param counted.currency).
 */
export async function closeShift(ctx: Storage & Clock, shiftId: string, body: CloseShiftBody): Promise<Shift> {
  const now = ctx.now();
  assertWellFormed(body.note, 'note');
  return ctx.store.transaction(async (tx) => {
    // the head first: the report covers every entry journalled before the close, and none comes in between
    await tx.locks.journalHead();
    const shift = await tx.shifts.get(shiftId);
    if (!shift) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'shiftId' });
    if (shift.status === 'closed') throw new EngineError('SHIFT_CLOSED', { details: { shiftId } });
    assertShiftCurrency(body.counted, shift.currency, 'counted.currency');
    const figures = await shiftFiguresIn(tx, shift);
    const expected = figures.cash.expected.amount;
    const closing = {
      closedAt: now,
      zNumber: await tx.shifts.nextZNumber(),
      expected,
      counted: body.counted.amount,
      difference: body.counted.amount - expected,
      note: body.note ?? null,
    };
    const closed = shiftView({ ...shift, ...closing, status: 'closed' });
    const report: ShiftReport = { kind: 'Z', shift: closed, ...figures };
    if (!(await tx.shifts.close(shift.id, { ...closing, report }))) throw new EngineError('SHIFT_CLOSED', { details: { shiftId } });
    const money = (amount: number) => ({ amount, currency: shift.currency });
    await appendJournal(tx, {
      at: now,
      kind: 'shiftClosed',
      ref: shift.id,
      amount: body.counted,
      shiftId: shift.id,
      data: { zNumber: closing.zNumber, expected: money(expected), counted: body.counted, difference: money(closing.difference), note: closing.note, report },
    });
    return closed;
  });
}
