import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { cash, eur, expectError, ISO_TIMESTAMP } from '../helpers/orders';
import {
  allShifts,
  base,
  closeShift,
  conflict,
  getCurrent,
  getReport,
  listShifts,
  move,
  openShift,
  postClose,
  postMovement,
  postShift,
  reportBytes,
  reportOf,
  restart,
  sell,
  type Shift,
} from '../helpers/shifts-contract';

/**
 * Contract §14, the life of a shift through the API: one open shift per engine, the current shift, opening,
 * pay-ins and pay-outs (and the pay-out the drawer cannot cover), closing with the count, Z numbers 1, 2, 3 …
 * without gaps (across a restart too), a closed shift refusing every change, and the list newest first.
 * Written from the contract and the shared design only.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine.close();
});

describe('§14 one shift at a time: open, current, pay in and out, close', () => {
  let first: Shift;

  it('before any shift: GET /shifts/current answers 404 RESOURCE_NOT_FOUND, GET /shifts lists none', async () => {
    expectError(await getCurrent(engine), 404, 'RESOURCE_NOT_FOUND');
    const listed = await listShifts(engine);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toEqual([]);
    expect(listed.body.nextCursor).toBeUndefined();
  });

  it('POST /shifts answers 201 { id, number: 1, status: "open", openedAt, openingFloat, staff }', async () => {
    const before = Date.now();
    const response = await postShift(engine, { openingFloat: eur(15000), staff: 'Ada' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    first = (response.body as { data: Shift }).data;
    expect(first).toMatchObject({ number: 1, status: 'open', openingFloat: eur(15000), staff: 'Ada' });
    expect(typeof first.id).toBe('string');
    expect(first.id.length).toBeGreaterThan(0);
    expect(first.openedAt).toMatch(ISO_TIMESTAMP);
    expect(Date.parse(first.openedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(first.openedAt)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(first.zNumber ?? undefined).toBeUndefined();
  });

  it('GET /shifts/current answers the open shift', async () => {
    const response = await getCurrent(engine);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((response.body as { data: Shift }).data).toMatchObject({ id: first.id, number: 1, status: 'open', openedAt: first.openedAt, openingFloat: eur(15000), staff: 'Ada' });
  });

  it('a second POST /shifts answers 409 SHIFT_ALREADY_OPEN naming the open shift in details.shiftId, and opens nothing', async () => {
    const refused = conflict(await postShift(engine, { openingFloat: eur(100) }), 'SHIFT_ALREADY_OPEN');
    expect(refused.details?.shiftId).toBe(first.id);
    const listed = await listShifts(engine);
    expect(listed.body.data.map((shift) => shift.id)).toEqual([first.id]);
    expect(((await getCurrent(engine)).body as { data: Shift }).data.id).toBe(first.id);
  });

  it('a pay-in and a pay-out answer 201 and move the cash expected in the drawer', async () => {
    await move(engine, first.id, 'payIn', eur(2500), 'change from the bank');
    await move(engine, first.id, 'payOut', eur(1000), 'flowers for the foyer');
    const report = await reportOf(engine, first.id);
    expect(report.cash).toEqual({ openingFloat: base(15000), sales: base(0), refunds: base(0), payIns: base(2500), payOuts: base(1000), expected: base(16500) });
  });

  it('a pay-out larger than the cash expected answers 409 INSUFFICIENT_CASH with details.expected, and moves nothing', async () => {
    const refused = conflict(await postMovement(engine, first.id, { kind: 'payOut', amount: eur(16501), reason: 'too much' }), 'INSUFFICIENT_CASH');
    expect(refused.details?.expected).toEqual(base(16500));
    expect((await reportOf(engine, first.id)).cash.expected).toEqual(base(16500));
    // exactly what is there is not larger: it empties the drawer; then one cent more is refused against 0
    await move(engine, first.id, 'payOut', eur(16500), 'to the safe');
    const empty = conflict(await postMovement(engine, first.id, { kind: 'payOut', amount: eur(1), reason: 'one cent' }), 'INSUFFICIENT_CASH');
    expect(empty.details?.expected).toEqual(base(0));
    await move(engine, first.id, 'payIn', eur(5000), 'back from the safe');
    expect((await reportOf(engine, first.id)).cash).toEqual({ openingFloat: base(15000), sales: base(0), refunds: base(0), payIns: base(7500), payOuts: base(17500), expected: base(5000) });
  });

  it('a cash sale moves the drawer: a pay-out of what it brought in is then covered', async () => {
    const order = await sell(engine, cash());
    conflict(await postMovement(engine, first.id, { kind: 'payOut', amount: eur(5000 + order.total.amount + 1), reason: 'too much' }), 'INSUFFICIENT_CASH');
    await move(engine, first.id, 'payOut', eur(order.total.amount), 'the sale to the safe');
    expect((await reportOf(engine, first.id)).cash.expected).toEqual(base(5000));
  });

  it('close answers 200: status closed, closedAt, zNumber 1, expected, counted, note, difference = counted − expected (short)', async () => {
    const before = Date.now();
    const closed = await closeShift(engine, first.id, eur(4950), 'fifty cents short');
    expect(closed).toMatchObject({ id: first.id, number: 1, status: 'closed', zNumber: 1, expected: base(5000), counted: base(4950), difference: base(-50), note: 'fifty cents short' });
    expect(Date.parse(closed.closedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(closed.closedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.openedAt));
  });

  it('after the close there is no current shift: 404 RESOURCE_NOT_FOUND', async () => {
    expectError(await getCurrent(engine), 404, 'RESOURCE_NOT_FOUND');
  });

  it('closing again, a pay-in or a pay-out on the closed shift answer 409 SHIFT_CLOSED; its report stays as it was', async () => {
    const frozen = await reportBytes(engine, first.id);
    conflict(await postClose(engine, first.id, { counted: eur(5000) }), 'SHIFT_CLOSED');
    conflict(await postMovement(engine, first.id, { kind: 'payIn', amount: eur(100), reason: 'late' }), 'SHIFT_CLOSED');
    conflict(await postMovement(engine, first.id, { kind: 'payOut', amount: eur(100), reason: 'late' }), 'SHIFT_CLOSED');
    expect(await reportBytes(engine, first.id)).toBe(frozen);
    const listed = (await listShifts(engine)).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: first.id, status: 'closed', zNumber: 1, counted: base(4950), difference: base(-50) });
  });

  it('an over count gives a positive difference; zNumber 2 follows 1', async () => {
    const second = await openShift(engine, eur(2000));
    expect(second.number).toBe(2);
    const closed = await closeShift(engine, second.id, eur(2030));
    expect(closed).toMatchObject({ number: 2, zNumber: 2, expected: base(2000), counted: base(2030), difference: base(30) });
  });
});

describe('§14 zNumber: 1, 2, 3 … per engine, without gaps', () => {
  it('refused closes take no number, a restart keeps the count: the third close is zNumber 3, the next shift number 4', async () => {
    const third = await openShift(engine, eur(0));
    expect(third.number).toBe(3);
    // refusals before and at the close: bad input, a wrong currency, an unknown shift
    expectError(await postClose(engine, third.id, {}), 400, 'MISSING_REQUIRED_FIELD', 'counted');
    expect((await postClose(engine, third.id, { counted: { amount: 0, currency: 'USD' } })).status).toBe(400);
    expectError(await postClose(engine, 'shf_does_not_exist', { counted: eur(0) }), 404, 'RESOURCE_NOT_FOUND');
    await restart(engine);
    expect(((await getCurrent(engine)).body as { data: Shift }).data.id).toBe(third.id);
    expect((await closeShift(engine, third.id, eur(0))).zNumber).toBe(3);
    conflict(await postClose(engine, third.id, { counted: eur(0) }), 'SHIFT_CLOSED');
    const fourth = await openShift(engine, eur(0));
    expect(fourth.number).toBe(4);
    expect((await closeShift(engine, fourth.id, eur(0))).zNumber).toBe(4);
  });

  it('five opens at once: exactly one 201, the other four 409 SHIFT_ALREADY_OPEN naming it', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => postShift(engine, { openingFloat: eur(1000) })));
    const opened = answers.filter((answer) => answer.status === 201);
    expect(opened, JSON.stringify(answers.map((answer) => answer.body))).toHaveLength(1);
    const shift = (opened[0]?.body as { data: Shift }).data;
    expect(shift.number).toBe(5);
    for (const answer of answers.filter((candidate) => candidate.status !== 201)) expect(conflict(answer, 'SHIFT_ALREADY_OPEN').details?.shiftId).toBe(shift.id);
    expect((await closeShift(engine, shift.id, eur(1000))).zNumber).toBe(5);
  });
});

describe('§14 GET /shifts?limit=&cursor=', () => {
  it('lists newest first; every page size walks all shifts once, in the same order', async () => {
    const open = await openShift(engine, eur(500));
    const all = (await listShifts(engine, '?limit=200')).body.data;
    expect(all.map((shift) => shift.number)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(all[0]).toMatchObject({ id: open.id, status: 'open' });
    all.slice(1).forEach((shift, i) => expect(shift).toMatchObject({ status: 'closed', zNumber: 5 - i }));
    for (const limit of [1, 2, 4, 6]) expect((await allShifts(engine, limit)).map((shift) => shift.id)).toEqual(all.map((shift) => shift.id));
    const firstPage = await listShifts(engine, '?limit=2');
    expect(firstPage.body.data.map((shift) => shift.number)).toEqual([6, 5]);
    expect(typeof firstPage.body.nextCursor).toBe('string');
    expect((await listShifts(engine, '?limit=6')).body.nextCursor).toBeUndefined();
  });

  it('a shift listed is the shift its report names', async () => {
    const [newest] = (await listShifts(engine, '?limit=1')).body.data;
    if (newest === undefined) throw new Error('no shift listed');
    expect((await reportOf(engine, newest.id)).shift).toMatchObject({ id: newest.id, number: newest.number, status: newest.status });
  });
});

describe('§14 an unknown shift id', () => {
  it.each([
    ['GET', '/report'],
    ['POST', '/cash-movements'],
    ['POST', '/close'],
  ])('%s /shifts/{unknown}%s answers 404 RESOURCE_NOT_FOUND', async (method, tail) => {
    const body = tail === '/close' ? { counted: eur(0) } : tail === '/cash-movements' ? { kind: 'payIn', amount: eur(100), reason: 'x' } : undefined;
    const response = await engine.request(method, `/shifts/shf_unknown${tail}`, body === undefined ? {} : { body });
    expectError(response, 404, 'RESOURCE_NOT_FOUND');
  });

  it('GET /shifts/{unknown}/report answers 404 in the envelope also for an id of odd characters', async () => {
    expectError(await getReport(engine, 'no such shift ü %'), 404, 'RESOURCE_NOT_FOUND');
  });
});
