import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFile } from '../sync/harness';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { FLOOR, giftLedgerCatalog, TICKET_PRICES, type TicketPrice } from '../helpers/gift-catalog';
import { card, cash, checkout, eur, expectError, orderOf, type Order } from '../helpers/orders';
import { closeShift, moveCash, openShift, postMovement, reportOf } from '../helpers/shifts';
import { cartOf } from '../helpers/cart-assertions';

/**
 * Property (contract §14): over random sequences of cash and card sales, cancellations (also of orders an earlier
 * shift sold), pay-ins and pay-outs against a real engine, the report's drawer after every step is
 * expected = float + cash sales − cash refunds + pay-ins − pay-outs, a pay-out above it is 409 INSUFFICIENT_CASH,
 * and the close's difference and Z report agree with it.
 */

interface Sold { id: string; cash: number; cancelled: boolean }
interface Model { shiftId: string; float: number; sales: number; refunds: number; payIns: number; payOuts: number; sold: Sold[] }
interface Real { engine: TestEngine }

const expectedOf = (m: Model) => m.float + m.sales - m.refunds + m.payIns - m.payOuts;

async function compare(model: Model, real: Real): Promise<void> {
  const { cash: drawer } = await reportOf(real.engine, model.shiftId);
  expect(drawer).toEqual({
    openingFloat: eur(model.float), sales: eur(model.sales), refunds: eur(model.refunds), payIns: eur(model.payIns), payOuts: eur(model.payOuts), expected: eur(expectedOf(model)),
  });
}

class Sell implements fc.AsyncCommand<Model, Real> {
  constructor(readonly price: TicketPrice, readonly quantity: number, readonly byCash: boolean, readonly over: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const items = [{ occurrenceId: FLOOR.occurrenceId, inventoryItemId: FLOOR.inventoryItemId, priceOptionId: this.price, quantity: this.quantity }];
    const cart = cartOf(await real.engine.request('POST', '/carts', { body: { items } }), 201);
    const total = TICKET_PRICES[this.price] * this.quantity;
    expect(cart.total).toEqual(eur(total));
    const order: Order = orderOf(await checkout(real.engine, cart.id, cart.total, this.byCash ? cash(eur(total + this.over)) : card()));
    // what cash took is the total, whatever was tendered
    if (this.byCash) model.sales += total;
    model.sold.push({ id: order.id, cash: this.byCash ? total : 0, cancelled: false });
    await compare(model, real);
  }
  toString = () => `sell(${this.quantity}×${this.price}, ${this.byCash ? `cash +${this.over}` : 'card'})`;
}

class Cancel implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.sold.some((order) => !order.cancelled);
  async run(model: Model, real: Real) {
    const open = model.sold.filter((order) => !order.cancelled);
    const order = open[this.pick % open.length];
    if (!order) throw new Error('no order to cancel');
    const answer = await real.engine.request<{ data: Order }>('POST', `/orders/${order.id}/cancel`);
    expect(answer.body.data.status).toBe('cancelled');
    order.cancelled = true;
    model.refunds += order.cash;
    await compare(model, real);
  }
  toString = () => `cancel(#${this.pick})`;
}

class Move implements fc.AsyncCommand<Model, Real> {
  constructor(readonly kind: 'payIn' | 'payOut', readonly amount: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const expected = expectedOf(model);
    if (this.kind === 'payOut' && this.amount > expected) {
      const refused = expectError(await postMovement(real.engine, model.shiftId, { kind: 'payOut', amount: eur(this.amount), reason: 'property' }), 409, 'INSUFFICIENT_CASH');
      expect(refused.details).toEqual({ expected: eur(expected) });
    } else {
      await moveCash(real.engine, model.shiftId, this.kind, eur(this.amount), 'property');
      if (this.kind === 'payIn') model.payIns += this.amount;
      else model.payOuts += this.amount;
    }
    await compare(model, real);
  }
  toString = () => `${this.kind}(${this.amount})`;
}

describe('property: the drawer of a shift', () => {
  let engine: TestEngine;
  const file = catalogFile(giftLedgerCatalog());
  beforeAll(async () => {
    engine = await startTestEngine({ catalogFile: file.path, demo: false });
  });
  afterAll(async () => {
    await engine.close();
    file.remove();
  });

  it('expected = float + sales − refunds + payIns − payOuts after every step; the close agrees', async () => {
    // orders outlive their shift: a later run may cancel one an earlier shift sold
    const sold: Sold[] = [];
    let zNumber = 0;
    const commands = [
      fc.tuple(fc.constantFrom<TicketPrice>('adult', 'student', 'child'), fc.integer({ min: 1, max: 3 }), fc.boolean(), fc.constantFrom(0, 0, 100, 2_000))
        .map(([price, quantity, byCash, over]) => new Sell(price, quantity, byCash, over)),
      fc.nat(50).map((pick) => new Cancel(pick)),
      fc.integer({ min: 1, max: 5_000 }).map((amount) => new Move('payIn', amount)),
      fc.integer({ min: 1, max: 30_000 }).map((amount) => new Move('payOut', amount)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20_000 }), fc.commands(commands, { maxCommands: 12 }), fc.integer({ min: -500, max: 500 }), async (float, cmds, miscount) => {
        const shift = await openShift(engine, eur(float));
        const model: Model = { shiftId: shift.id, float, sales: 0, refunds: 0, payIns: 0, payOuts: 0, sold };
        await fc.asyncModelRun(() => ({ model, real: { engine } }), cmds);
        const expected = expectedOf(model);
        const x = await reportOf(engine, shift.id);
        const counted = Math.max(0, expected + miscount);
        const closed = await closeShift(engine, shift.id, eur(counted));
        zNumber += 1;
        expect(closed).toMatchObject({ zNumber, expected: eur(expected), counted: eur(counted), difference: eur(counted - expected) });
        expect(await reportOf(engine, shift.id)).toEqual({ ...x, kind: 'Z', shift: closed });
      }),
      { numRuns: 20 },
    );
  }, 180_000);
});
