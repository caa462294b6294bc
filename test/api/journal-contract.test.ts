import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { parts, payWithGiftCards, sellGiftCard, splitOrderOf } from '../helpers/gift-cards';
import { card, cash, checkout, eur, expectError, ISO_TIMESTAMP, newKey, orderOf } from '../helpers/orders';
import { base, cancelOrder, closeShift, move, openShift, postMovement, postShift, reportOf, sell, type Shift } from '../helpers/shifts-contract';
import { entriesAfter, entryOfRow, expectChain, journalRows, lastSeq, readJournal, verifyJournal, ZERO_HASH, type JournalEntry } from '../helpers/journal-contract';

/**
 * Contract §14, the journal: every order, cancellation, drawer movement, shift opening and closing appends one
 * entry when it is made (and a refusal appends none); seq 1, 2, 3 … without gaps; each hash recomputed here from
 * the contract's words; the API's entries are the rows of table `journal` an auditor reads; verify answers ok
 * with the count and the head. Paging (after, limit, nextAfter) is in journal-contract-paging.test.ts, tampering
 * in journal-contract-tamper.test.ts.
 */

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine.close();
});

/** the one entry written since `seq`, expecting exactly one */
async function oneEntryAfter(seq: number): Promise<JournalEntry> {
  const entries = await entriesAfter(engine, seq);
  expect(entries, JSON.stringify(entries)).toHaveLength(1);
  const [entry] = entries;
  if (entry === undefined) throw new Error('no entry');
  expect(entry.seq).toBe(seq + 1);
  expect(entry.at).toMatch(ISO_TIMESTAMP);
  return entry;
}

describe('§14 the journal: one entry for each thing made, written with it', () => {
  let shift: Shift;
  let seq = 0;

  it('a fresh engine: an empty journal, verified ok with no entries', async () => {
    expect(await readJournal(engine)).toEqual([]);
    const answer = await verifyJournal(engine);
    expect(answer).toMatchObject({ ok: true, entries: 0 });
  });

  it('a sale with no shift open: an order entry (ref the order, amount its total) whose data has shiftId null', async () => {
    const order = await sell(engine, cash());
    const entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ seq: 1, kind: 'order', ref: order.id, amount: order.total, prevHash: ZERO_HASH });
    expect(entry.data.shiftId).toBeNull();
    seq = entry.seq;
  });

  it('opening a shift: a shiftOpened entry (ref the shift, amount the float)', async () => {
    shift = await openShift(engine, eur(20000), 'Lin');
    const entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ kind: 'shiftOpened', ref: shift.id, amount: eur(20000) });
    expect(entry.data).toMatchObject({ shiftId: shift.id, number: shift.number, staff: 'Lin' });
    seq = entry.seq;
  });

  it('a cash sale, a card sale and a gift-card split: one order entry each, in the open shift, payments listed', async () => {
    const byCash = await sell(engine, cash(eur(10000)));
    let entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ kind: 'order', ref: byCash.id, amount: byCash.total, data: { shiftId: shift.id, orderId: byCash.id } });
    seq = entry.seq;

    const byCard = await sell(engine, card(), [concert(2)]);
    entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ kind: 'order', ref: byCard.id, amount: byCard.total, data: { shiftId: shift.id, orderId: byCard.id } });
    seq = entry.seq;

    const { code, order: cardSale } = await sellGiftCard(engine, 'gift-25');
    entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ kind: 'order', ref: cardSale.id, amount: eur(2500) });
    seq = entry.seq;

    const cart = await createCart(engine, [concert(1)]);
    const split = splitOrderOf(await payWithGiftCards(engine, cart.id, cart.total, { method: 'cash', giftCards: parts([code, 2500]) }));
    entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ kind: 'order', ref: split.id, amount: split.total, data: { shiftId: shift.id, orderId: split.id } });
    const payments = (entry.data.payments ?? []) as { method: string; amount: unknown }[];
    expect([...payments].sort((a, b) => a.method.localeCompare(b.method))).toEqual([
      { method: 'cash', amount: eur(split.total.amount - 2500) },
      { method: 'giftCard', amount: eur(2500) },
    ]);
    seq = entry.seq;
  });

  it('a pay-in and a pay-out: one entry each with its amount and reason (written as given), in the open shift', async () => {
    // a reason with what JSON escapes or may escape: quotes, a backslash, a newline, non-ASCII letters, an emoji
    const reason = 'Münzen für Zoë — "Wechselgeld" \\ Kasse 2\n€ 🎟';
    await move(engine, shift.id, 'payIn', eur(1500), reason);
    let entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ kind: 'payIn', amount: eur(1500), data: { shiftId: shift.id, reason } });
    expect(entry.ref.length).toBeGreaterThan(0);
    seq = entry.seq;
    await move(engine, shift.id, 'payOut', eur(700), 'stamps');
    entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ kind: 'payOut', amount: eur(700), data: { shiftId: shift.id, reason: 'stamps' } });
    seq = entry.seq;
  });

  it('a cancellation: one entry (ref the order, amount what is given back), in the shift open when it is made', async () => {
    const first = (await readJournal(engine))[0];
    await cancelOrder(engine, first?.ref ?? '');
    const entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({ kind: 'cancellation', ref: first?.ref, amount: first?.amount, data: { shiftId: shift.id, orderId: first?.ref } });
    seq = entry.seq;
  });

  it('refusals append nothing: declined card, a replayed checkout, a second cancel, a second open, a pay-out too large, bad input', async () => {
    const cart = await createCart(engine, [concert(1)]);
    expectError(await checkout(engine, cart.id, cart.total, card('tok_declined')), 402, 'PAYMENT_DECLINED');
    const key = newKey();
    const order = orderOf(await checkout(engine, cart.id, cart.total, card(), { idempotencyKey: key }));
    seq = (await oneEntryAfter(seq)).seq;
    const replay = await checkout(engine, cart.id, cart.total, card(), { idempotencyKey: key });
    expect(replay.status).toBe(201);
    await cancelOrder(engine, order.id);
    seq = (await oneEntryAfter(seq)).seq;
    await cancelOrder(engine, order.id); // a no-op
    expectError(await postShift(engine, { openingFloat: eur(0) }), 409, 'SHIFT_ALREADY_OPEN');
    expectError(await postMovement(engine, shift.id, { kind: 'payOut', amount: eur(10_000_000), reason: 'x' }), 409, 'INSUFFICIENT_CASH');
    expect((await postMovement(engine, shift.id, { kind: 'payIn', reason: 'x' })).status).toBe(400);
    expect(await lastSeq(engine)).toBe(seq);
  });

  it('closing: a shiftClosed entry (ref the shift, amount counted) holding zNumber, expected, counted, difference and the Z report', async () => {
    const closed = await closeShift(engine, shift.id, eur(30000), 'end of day');
    const entry = await oneEntryAfter(seq);
    expect(entry).toMatchObject({
      kind: 'shiftClosed',
      ref: shift.id,
      amount: eur(30000),
      data: { shiftId: shift.id, zNumber: closed.zNumber, expected: closed.expected, counted: eur(30000), difference: closed.difference, note: 'end of day' },
    });
    const z = await reportOf(engine, shift.id);
    expect(entry.data.report).toMatchObject({ orders: z.orders, cancellations: z.cancellations, cash: z.cash });
    expect(closed.difference).toEqual(base(30000 - (closed.expected?.amount ?? Number.NaN)));
    seq = entry.seq;
  });

  it('the chain: seq 1, 2, 3 … without gaps, the first prevHash 64 zeros, every hash recomputed from its entry', async () => {
    const entries = await readJournal(engine);
    expect(entries.length).toBe(seq);
    expectChain(entries);
  });

  it('verify answers { ok: true, entries, head }: the count and the last hash', async () => {
    const entries = await readJournal(engine);
    expect(await verifyJournal(engine)).toEqual({ ok: true, entries: entries.length, head: entries.at(-1)?.hash });
  });

  it('the rows of table `journal` (seq, at, kind, ref, amount and data as JSON text, prev_hash, hash) are the entries, each hash recomputed from its row', async () => {
    const entries = await readJournal(engine);
    const rows = await journalRows(engine);
    expect(rows.map(entryOfRow)).toEqual(entries);
    expectChain(rows.map(entryOfRow));
  });
});

describe('§14 the journal under concurrent writes', () => {
  it('twelve cash sales and six pay-ins at once: every one has its entry, the chain stays gapless and verified', async () => {
    const shift = await openShift(engine, eur(0));
    const before = await lastSeq(engine);
    const carts = await Promise.all(Array.from({ length: 12 }, () => createCart(engine, [concert(1, 'standing-student', 'brass-2027-03-13')])));
    const [orders] = await Promise.all([
      Promise.all(carts.map(async (cart) => orderOf(await checkout(engine, cart.id, cart.total, cash())))),
      Promise.all(Array.from({ length: 6 }, (_, i) => move(engine, shift.id, 'payIn', eur(100 + i), `float ${i}`))),
    ]);
    const added = await entriesAfter(engine, before);
    expect(added).toHaveLength(18);
    expect(added.filter((entry) => entry.kind === 'order').map((entry) => entry.ref).sort()).toEqual(orders.map((order) => order.id).sort());
    expect(added.filter((entry) => entry.kind === 'payIn')).toHaveLength(6);
    for (const entry of added) expect(entry.data.shiftId).toBe(shift.id);
    const entries = await readJournal(engine);
    expectChain(entries);
    expect(await verifyJournal(engine)).toEqual({ ok: true, entries: entries.length, head: entries.at(-1)?.hash });
    const report = await reportOf(engine, shift.id);
    expect(report.orders.count).toBe(12);
    expect(report.cash.payIns).toEqual(base(6 * 100 + 15));
  });
});
