import { EngineError } from '../domain/errors';
import type { OpenShiftBody, Shift } from '../contract/shift';
import type { Clock, Ids, Storage } from '../shared/context';
import { appendJournal } from '../journal/append';
import { assertWellFormed } from './well-formed';
import { assertShiftCurrency, baseCurrencyIn } from './base-currency';
import { shiftView } from './shift-view';

/**
 * POST /shifts (contract §14): opens this engine's shift with its float, numbered 1, 2, 3 … — one open shift per
 * database (every engine process sharing a PostgreSQL database is one engine). A second answers 409
 * SHIFT_ALREADY_OPEN with `details.shiftId`. The float is in the base currency (another: 400 INVALID_FIELD_VALUE,
 * param openingFloat.currency); with no location in the catalog yet, the float's currency is the shift's.
 *
 * One transaction: the journal head's lock first (so opens, closes, movements and every journalled sale are
 * ordered with each other across processes), the check, the row, and its `shiftOpened` entry.
 */
export async function openShift(ctx: Storage & Clock & Ids, body: OpenShiftBody): Promise<Shift> {
  const now = ctx.now();
  assertWellFormed(body.staff, 'staff');
  return ctx.store.transaction(async (tx) => {
    await tx.locks.journalHead();
    const open = await tx.shifts.openId();
    if (open !== undefined) throw new EngineError('SHIFT_ALREADY_OPEN', { details: { shiftId: open } });
    const currency = (await baseCurrencyIn(tx)) ?? body.openingFloat.currency;
    assertShiftCurrency(body.openingFloat, currency, 'openingFloat.currency');
    const row = {
      id: ctx.newId('shf'),
      number: await tx.shifts.nextNumber(),
      openedAt: now,
      openingFloat: body.openingFloat.amount,
      currency,
      staff: body.staff ?? null,
    };
    if (!(await tx.shifts.insert(row))) {
      throw new EngineError('SHIFT_ALREADY_OPEN', { details: { shiftId: (await tx.shifts.openId()) ?? null } });
    }
    await appendJournal(tx, {
      at: now,
      kind: 'shiftOpened',
      ref: row.id,
      amount: body.openingFloat,
      shiftId: row.id,
      data: { number: row.number, staff: row.staff },
    });
    return shiftView({ ...row, status: 'open', closedAt: null, zNumber: null, expected: null, counted: null, difference: null, note: null });
  });
}
