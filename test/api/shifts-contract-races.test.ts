import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type ApiResponse, type TestEngine } from '../helpers/engine';
import { eur } from '../helpers/orders';
import { base, closeShift, conflict, openShift, postClose, postMovement, reportOf, type Shift } from '../helpers/shifts-contract';
import { readJournal, verifyJournal } from '../helpers/journal-contract';

/**
 * Contract §14 under concurrent requests: pay-outs racing for the same cash never take the drawer below zero
 * (each one larger than what is left answers 409 INSUFFICIENT_CASH), and closes racing for the same shift close
 * it once, with one Z number, the next close taking the next number (no gap).
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine.close();
});

const statuses = (answers: ApiResponse[]): number[] => answers.map((answer) => answer.status).sort();

describe('§14 races', () => {
  let shift: Shift;

  it('five pay-outs of 600 at once from a drawer of 1000: one 201, four 409 INSUFFICIENT_CASH; 400 expected after', async () => {
    shift = await openShift(engine, eur(1000));
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => postMovement(engine, shift.id, { kind: 'payOut', amount: eur(600), reason: `race ${i}` })));
    expect(statuses(answers), JSON.stringify(answers.map((answer) => answer.body))).toEqual([201, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409)) expect(conflict(refused, 'INSUFFICIENT_CASH').details?.expected).toEqual(base(400));
    expect((await reportOf(engine, shift.id)).cash).toMatchObject({ payOuts: base(600), expected: base(400) });
    expect((await readJournal(engine)).filter((entry) => entry.kind === 'payOut')).toHaveLength(1);
  });

  it('three closes of one shift at once: one 200 with zNumber 1, two 409 SHIFT_CLOSED; the next shift closes as zNumber 2', async () => {
    const answers = await Promise.all([400, 410, 420].map((counted) => postClose(engine, shift.id, { counted: eur(counted) })));
    expect(statuses(answers), JSON.stringify(answers.map((answer) => answer.body))).toEqual([200, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409)) conflict(refused, 'SHIFT_CLOSED');
    const closed = answers.find((answer) => answer.status === 200)?.body as { data: Shift };
    expect(closed.data.zNumber).toBe(1);
    expect((await readJournal(engine)).filter((entry) => entry.kind === 'shiftClosed')).toHaveLength(1);
    const next = await openShift(engine, eur(0));
    expect((await closeShift(engine, next.id, eur(0))).zNumber).toBe(2);
    expect(await verifyJournal(engine)).toMatchObject({ ok: true });
  });
});
