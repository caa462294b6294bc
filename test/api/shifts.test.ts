import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { eur, expectError, ISO_TIMESTAMP } from '../helpers/orders';
import { closeShift, dataOf, getReport, moveCash, openShift, postClose, postMovement, postShift, reportOf, type Shift } from '../helpers/shifts';

/**
 * Shifts and the cash drawer (contract §14): open, the one open shift, current, the list, pay-ins and pay-outs,
 * INSUFFICIENT_CASH, close with its Z number, SHIFT_CLOSED, and the bad input answered 400 in the envelope. The
 * demo catalog's base currency is EUR (its location's first currency).
 */
describe('shifts', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(async () => {
    await engine.close();
  });

  it('opens one shift, answers it as current, refuses a second (409 SHIFT_ALREADY_OPEN naming it), closes it', async () => {
    expectError(await engine.request('GET', '/shifts/current', { key: engine.keys.ordersRead }), 404, 'RESOURCE_NOT_FOUND');
    const shift = await openShift(engine, eur(15_000), 'Ann');
    expect(shift).toEqual({ id: expect.stringMatching(/^shf_/) as unknown, number: 1, status: 'open', openedAt: expect.stringMatching(ISO_TIMESTAMP) as unknown, openingFloat: eur(15_000), staff: 'Ann' });
    expect(dataOf<Shift>(await engine.request('GET', '/shifts/current', { key: engine.keys.ordersRead }), 200)).toEqual(shift);
    expect(dataOf<Shift>(await engine.request('GET', `/shifts/${shift.id}`, { key: engine.keys.ordersRead }), 200)).toEqual(shift);

    const second = expectError(await postShift(engine, { openingFloat: eur(100) }), 409, 'SHIFT_ALREADY_OPEN');
    expect(second.details).toEqual({ shiftId: shift.id });

    const closed = await closeShift(engine, shift.id, eur(15_000));
    expect(closed).toMatchObject({ id: shift.id, number: 1, status: 'closed', zNumber: 1, expected: eur(15_000), counted: eur(15_000), difference: eur(0) });
    expect(closed.closedAt).toMatch(ISO_TIMESTAMP);
    expect(closed.note).toBeUndefined();
    expectError(await engine.request('GET', '/shifts/current', { key: engine.keys.ordersRead }), 404, 'RESOURCE_NOT_FOUND');
  });

  it('pay-ins and pay-outs move the expected cash; a pay-out above it is 409 INSUFFICIENT_CASH with details.expected', async () => {
    const shift = await openShift(engine, eur(10_000));
    const payIn = await moveCash(engine, shift.id, 'payIn', eur(2_500), 'coins from the bank');
    expect(payIn).toEqual({ id: expect.stringMatching(/^mov_/) as unknown, shiftId: shift.id, kind: 'payIn', amount: eur(2_500), reason: 'coins from the bank', at: expect.stringMatching(ISO_TIMESTAMP) as unknown });
    await moveCash(engine, shift.id, 'payOut', eur(4_000), 'flowers for the soloist');
    expect((await reportOf(engine, shift.id)).cash).toEqual({
      openingFloat: eur(10_000), sales: eur(0), refunds: eur(0), payIns: eur(2_500), payOuts: eur(4_000), expected: eur(8_500),
    });

    const tooMuch = expectError(await postMovement(engine, shift.id, { kind: 'payOut', amount: eur(8_501), reason: 'safe drop' }), 409, 'INSUFFICIENT_CASH');
    expect(tooMuch.details).toEqual({ expected: eur(8_500) });
    // exactly what is expected may go out: the drawer is then empty
    await moveCash(engine, shift.id, 'payOut', eur(8_500), 'safe drop');
    const report = await reportOf(engine, shift.id);
    expect(report.kind).toBe('X');
    expect(report.cash.expected).toEqual(eur(0));

    const closed = await closeShift(engine, shift.id, eur(120), 'found a coin roll');
    expect(closed).toMatchObject({ zNumber: 2, expected: eur(0), counted: eur(120), difference: eur(120), note: 'found a coin roll' });
  });

  it('a closed shift answers 409 SHIFT_CLOSED to a movement or a second close; its report is the Z report, frozen', async () => {
    const shift = await openShift(engine, eur(5_000));
    await moveCash(engine, shift.id, 'payIn', eur(1_000));
    const closed = await closeShift(engine, shift.id, eur(5_900));
    expect(closed).toMatchObject({ expected: eur(6_000), counted: eur(5_900), difference: eur(-100) });
    const z = await reportOf(engine, shift.id);
    expect(z.kind).toBe('Z');
    expect(z.shift).toEqual(closed);
    expect(z.cash.expected).toEqual(eur(6_000));

    expectError(await postClose(engine, shift.id, { counted: eur(5_900) }), 409, 'SHIFT_CLOSED');
    expectError(await postMovement(engine, shift.id, { kind: 'payIn', amount: eur(1), reason: 'late' }), 409, 'SHIFT_CLOSED');
    expectError(await postMovement(engine, shift.id, { kind: 'payOut', amount: eur(1), reason: 'late' }), 409, 'SHIFT_CLOSED');
    expect(await reportOf(engine, shift.id)).toEqual(z);
  });

  it('journals every opening, movement and closing with its shift, in a chain that verifies', async () => {
    const shift = await openShift(engine, eur(3_000), 'Cy');
    const payIn = await moveCash(engine, shift.id, 'payIn', eur(500), 'coins');
    const payOut = await moveCash(engine, shift.id, 'payOut', eur(200), 'stamps');
    const closed = await closeShift(engine, shift.id, eur(3_250), 'fifty short');
    const journal = await engine.request<{ data: { kind: string; ref: string; amount?: unknown; data: Record<string, unknown> }[] }>('GET', '/journal?limit=1000');
    expect(journal.status).toBe(200);
    const mine = journal.body.data.filter((entry) => entry.data.shiftId === shift.id);
    expect(mine.map((entry) => [entry.kind, entry.ref, entry.amount])).toEqual([
      ['shiftOpened', shift.id, eur(3_000)],
      ['payIn', payIn.id, eur(500)],
      ['payOut', payOut.id, eur(200)],
      ['shiftClosed', shift.id, eur(3_250)],
    ]);
    expect(mine[0]?.data).toEqual({ shiftId: shift.id, number: shift.number, staff: 'Cy' });
    expect(mine[1]?.data).toEqual({ shiftId: shift.id, reason: 'coins' });
    expect(mine[3]?.data).toEqual({
      shiftId: shift.id, zNumber: closed.zNumber, expected: eur(3_300), counted: eur(3_250), difference: eur(-50), note: 'fifty short',
      report: await reportOf(engine, shift.id),
    });
    expect((await engine.request<{ data: { ok: boolean } }>('GET', '/journal/verify')).body.data.ok).toBe(true);
  });

  it('an unknown shift is 404 RESOURCE_NOT_FOUND for every route', async () => {
    expectError(await engine.request('GET', '/shifts/shf_nope', { key: engine.keys.ordersRead }), 404, 'RESOURCE_NOT_FOUND', 'shiftId');
    expectError(await getReport(engine, 'shf_nope'), 404, 'RESOURCE_NOT_FOUND', 'shiftId');
    expectError(await postMovement(engine, 'shf_nope', { kind: 'payIn', amount: eur(1), reason: 'x' }), 404, 'RESOURCE_NOT_FOUND', 'shiftId');
    expectError(await postClose(engine, 'shf_nope', { counted: eur(0) }), 404, 'RESOURCE_NOT_FOUND', 'shiftId');
  });

  it('lists the shifts newest first, a page at a time', async () => {
    const all = dataOf<Shift[]>(await engine.request('GET', '/shifts', { key: engine.keys.ordersRead }), 200);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.map((shift) => shift.number)).toEqual([...all.map((shift) => shift.number)].sort((a, b) => b - a));
    const first = await engine.request<{ data: Shift[]; nextCursor?: string }>('GET', '/shifts?limit=2', { key: engine.keys.ordersRead });
    expect(first.body.data.map((shift) => shift.id)).toEqual(all.slice(0, 2).map((shift) => shift.id));
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const rest: Shift[] = [];
    let cursor = first.body.nextCursor;
    while (cursor !== undefined) {
      const page = await engine.request<{ data: Shift[]; nextCursor?: string }>('GET', `/shifts?limit=2&cursor=${cursor}`, { key: engine.keys.ordersRead });
      expect(page.status).toBe(200);
      rest.push(...page.body.data);
      cursor = page.body.nextCursor;
    }
    expect([...first.body.data, ...rest]).toEqual(all);
  });

  it('answers bad input 400 in the envelope, naming the field, and changes nothing', async () => {
    const bad = async (body: unknown, code: string, param?: string) => expectError(await postShift(engine, body), 400, code, param);
    await bad({}, 'MISSING_REQUIRED_FIELD', 'openingFloat');
    await bad({ openingFloat: eur(-1) }, 'INVALID_FIELD_VALUE');
    await bad({ openingFloat: eur(10.5) }, 'INVALID_FIELD_VALUE');
    await bad({ openingFloat: { amount: 100, currency: 'USD' } }, 'INVALID_FIELD_VALUE', 'openingFloat.currency');
    await bad({ openingFloat: eur(100), till: 3 }, 'INVALID_FIELD_VALUE');
    await bad({ openingFloat: eur(100), staff: '' }, 'INVALID_FIELD_VALUE');
    expectError(await engine.request('POST', '/shifts', { rawBody: '{"openingFloat":', headers: { 'content-type': 'application/json' } }), 400, 'MALFORMED_JSON');
    expectError(await engine.request('GET', '/shifts?cursor=nonsense', { key: engine.keys.ordersRead }), 400, 'INVALID_FIELD_VALUE', 'cursor');
    expectError(await engine.request('GET', '/shifts?limit=0', { key: engine.keys.ordersRead }), 400, 'INVALID_FIELD_VALUE');
    expectError(await engine.request('GET', '/shifts/current', { key: engine.keys.ordersRead }), 404, 'RESOURCE_NOT_FOUND');

    const shift = await openShift(engine, eur(1_000));
    const move = async (body: unknown, code: string, param?: string) => expectError(await postMovement(engine, shift.id, body), 400, code, param);
    await move({ kind: 'payIn', amount: eur(100) }, 'MISSING_REQUIRED_FIELD', 'reason');
    await move({ kind: 'payIn', amount: eur(100), reason: '' }, 'INVALID_FIELD_VALUE');
    await move({ kind: 'payIn', amount: eur(0), reason: 'nothing' }, 'INVALID_FIELD_VALUE');
    await move({ kind: 'payIn', amount: eur(-100), reason: 'minus' }, 'INVALID_FIELD_VALUE');
    await move({ kind: 'tip', amount: eur(100), reason: 'x' }, 'INVALID_FIELD_VALUE');
    await move({ kind: 'payOut', amount: { amount: 100, currency: 'GBP' }, reason: 'x' }, 'INVALID_FIELD_VALUE', 'amount.currency');
    const close = async (body: unknown, code: string, param?: string) => expectError(await postClose(engine, shift.id, body), 400, code, param);
    await close({}, 'MISSING_REQUIRED_FIELD', 'counted');
    await close({ counted: eur(-5) }, 'INVALID_FIELD_VALUE');
    await close({ counted: { amount: 1_000, currency: 'USD' } }, 'INVALID_FIELD_VALUE', 'counted.currency');
    // none of it changed the shift
    expect((await reportOf(engine, shift.id)).cash.expected).toEqual(eur(1_000));
    expect((await closeShift(engine, shift.id, eur(1_000))).difference).toEqual(eur(0));
  });

  it('needs orders:write to change a drawer and orders:read to read one', async () => {
    expectError(await postShift(engine, { openingFloat: eur(100) }, engine.keys.ordersRead), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await engine.request('GET', '/shifts', { key: engine.keys.carts }), 403, 'INSUFFICIENT_PERMISSIONS');
    const kiosk = await engine.createKey(['catalog:read', 'carts:write', 'orders:checkout', 'sync:status']);
    expectError(await postShift(engine, { openingFloat: eur(100) }, kiosk), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await engine.request('GET', '/shifts/current', { key: kiosk }), 403, 'INSUFFICIENT_PERMISSIONS');
  });
});

/** Z numbers run 1, 2, 3 … without gaps, across real restarts of the engine on the same data. */
describe('Z numbers across restarts', () => {
  // four real restarts: a minute leaves room for a loaded machine (PostgreSQL starts are the slower ones)
  it('numbers shifts and Z reports on from where the last start left them', { timeout: 60_000 }, async () => {
    const engine = await startTestEngine();
    try {
      const numbers: { number: number; zNumber: number | undefined }[] = [];
      for (let round = 0; round < 3; round++) {
        const shift = await openShift(engine, eur(1_000));
        // the second round restarts with its shift open: it is still the open one afterwards
        if (round === 1) {
          await restart(engine);
          expect(dataOf<Shift>(await engine.request('GET', '/shifts/current'), 200).id).toBe(shift.id);
        }
        const closed = await closeShift(engine, shift.id, eur(1_000));
        numbers.push({ number: closed.number, zNumber: closed.zNumber });
        await restart(engine);
      }
      expect(numbers).toEqual([{ number: 1, zNumber: 1 }, { number: 2, zNumber: 2 }, { number: 3, zNumber: 3 }]);
      const z1 = await reportOf(engine, dataOf<Shift[]>(await engine.request('GET', '/shifts?limit=200'), 200).at(-1)?.id ?? '');
      expect(z1.shift).toMatchObject({ number: 1, zNumber: 1, status: 'closed' });
    } finally {
      await engine.close();
    }
  });
});

/**
 * Stops the engine and starts it again on the same data and port. The client's pooled connections to the stopped
 * server are dead: a health call or two takes them out of the pool before the test's own requests.
 */
async function restart(engine: TestEngine): Promise<void> {
  await engine.stop();
  await engine.start();
  for (let attempt = 1; attempt <= 5; attempt++) {
    const status = await engine.request('GET', '/health').then((response) => response.status, () => 0);
    if (status === 200) return;
  }
  throw new Error('the restarted engine does not answer /health');
}
