import { EngineError } from '../domain/errors';
import type { CashMovement, CashMovementBody } from '../contract/shift';
import type { Clock, Ids, Storage } from '../shared/context';
import { appendJournal } from '../journal/append';
import { assertWellFormed } from './well-formed';
import { assertShiftCurrency } from './base-currency';
import { shiftFiguresIn } from './report';

/**
 * POST /shifts/{id}/cash-movements (contract §14): a pay-in or a pay-out of the shift's drawer, with its reason,
 * journalled as `payIn` / `payOut` in the same transaction. 404 for an unknown shift, 409 SHIFT_CLOSED for a
 * closed one, 400 INVALID_FIELD_VALUE (param amount.currency) for another currency than the shift's, and 409
 * INSUFFICIENT_CASH (`details.expected`) for a pay-out above the cash the drawer should hold now.
 */
export async function addCashMovement(ctx: Storage & Clock & Ids, shiftId: string, body: CashMovementBody): Promise<CashMovement> {
  const now = ctx.now();
  assertWellFormed(body.reason, 'reason');
  return ctx.store.transaction(async (tx) => {
    // the head first: the expected cash is read with nothing journalled in between (a sale or refund waits)
    await tx.locks.journalHead();
    const shift = await tx.shifts.get(shiftId);
    if (!shift) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'shiftId' });
    if (shift.status === 'closed') throw new EngineError('SHIFT_CLOSED', { details: { shiftId } });
    assertShiftCurrency(body.amount, shift.currency, 'amount.currency');
    if (body.kind === 'payOut') {
      const { expected } = (await shiftFiguresIn(tx, shift)).cash;
      if (body.amount.amount > expected.amount) throw new EngineError('INSUFFICIENT_CASH', { param: 'amount.amount', details: { expected } });
    }
    const movement = { id: ctx.newId('mov'), shiftId, kind: body.kind, amount: body.amount.amount, currency: shift.currency, reason: body.reason, at: now };
    await tx.shifts.addMovement(movement);
    await appendJournal(tx, { at: now, kind: body.kind, ref: movement.id, amount: body.amount, shiftId, data: { reason: body.reason } });
    return { id: movement.id, shiftId, kind: movement.kind, amount: body.amount, reason: movement.reason, at: new Date(now).toISOString() };
  });
}
