import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../renderer/src/api/client';
import { setClient } from '../../../renderer/src/api/service';
import { countedTotal, denominationsOf } from '../../../renderer/src/denominations';
import { cartStore, type TicketRequest } from '../../../renderer/src/stores/cart';
import { checkoutStore } from '../../../renderer/src/stores/checkout';
import { drawerStore } from '../../../renderer/src/stores/drawer';
import { shiftsStore } from '../../../renderer/src/stores/shifts';
import { startTestEngine, type TestEngine } from '../../helpers/engine';

/**
 * The cash drawer's stores against a real engine started with `requireShift` (issue #25): what the header shows is
 * the engine's answer (the open shift, its report's expected cash), a cash payment with the drawer closed asks for
 * the Open drawer dialog and goes on once it is open, the engine's refusals stay in the dialog, and a close answers
 * the frozen Z report. Nothing is mocked.
 */

const standing = (quantity: number): TicketRequest => ({ occurrenceId: 'brass-2027-03-12', inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity });
const eur = (amount: number) => ({ amount, currency: 'EUR' });

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine({ requireShift: true });
});
afterAll(() => engine.close());

beforeEach(async () => {
  setClient(createClient({ baseUrl: `${engine.url}/api/v3`, apiKey: engine.keys.admin, language: () => 'en', sleep: () => Promise.resolve() }));
  cartStore.setState({ cart: null, busy: false, error: null, expired: false, currency: undefined });
  checkoutStore.setState({ phase: 'idle', challenge: null, order: null, error: null, last: null });
  drawerStore.setState({ requireShift: false, shift: null, expected: null, loaded: false, dialog: null, forCash: false, busy: false, error: null, closed: null });
  shiftsStore.getState().left();
  // each test starts with the drawer closed
  const current = await engine.request<{ data: { id: string } }>('GET', '/shifts/current');
  if (current.status === 200) await engine.request('POST', `/shifts/${current.body.data.id}/close`, { body: { counted: eur(0) } });
});

describe('the drawer store', () => {
  it('with requireShift, cash asks for the drawer first and goes on once it is open; the expected cash is the engine’s', async () => {
    drawerStore.getState().configured(true);
    await drawerStore.getState().refreshed();
    expect(drawerStore.getState()).toMatchObject({ loaded: true, shift: null, expected: null });

    let resumed = 0;
    expect(drawerStore.getState().cashAllowed(() => (resumed += 1))).toBe(false);
    expect(drawerStore.getState()).toMatchObject({ dialog: 'open', forCash: true });
    await drawerStore.getState().openSubmitted(eur(15000));
    expect(resumed).toBe(1);
    expect(drawerStore.getState()).toMatchObject({ dialog: null, forCash: false, expected: eur(15000), shift: { status: 'open', openingFloat: eur(15000) } });
    expect(drawerStore.getState().cashAllowed(() => (resumed += 1))).toBe(true);

    await cartStore.getState().ticketsChosen([standing(2)]);
    await checkoutStore.getState().cashPaid(eur(10000));
    const order = checkoutStore.getState().order;
    expect(order?.payment).toMatchObject({ method: 'cash' });
    await drawerStore.getState().refreshed();
    const report = (await engine.request<{ data: { cash: { expected: unknown } } }>('GET', `/shifts/${drawerStore.getState().shift?.id ?? ''}/report`)).body.data;
    expect(drawerStore.getState().expected).toEqual(report.cash.expected);
  });

  it('a pay-out above the expected cash is refused in the dialog (INSUFFICIENT_CASH); a pay-in and a smaller pay-out go through', async () => {
    await drawerStore.getState().refreshed();
    drawerStore.getState().dialogRequested('open');
    await drawerStore.getState().openSubmitted(eur(5000));

    drawerStore.getState().dialogRequested('payOut');
    await drawerStore.getState().movementSubmitted('payOut', eur(5001), 'bank');
    expect(drawerStore.getState()).toMatchObject({ dialog: 'payOut', busy: false, error: { status: 409, code: 'INSUFFICIENT_CASH', details: { expected: eur(5000) } } });
    await drawerStore.getState().movementSubmitted('payOut', eur(2000), 'bank');
    expect(drawerStore.getState()).toMatchObject({ dialog: null, error: null, expected: eur(3000) });
    drawerStore.getState().dialogRequested('payIn');
    await drawerStore.getState().movementSubmitted('payIn', eur(500), 'change from the bank');
    expect(drawerStore.getState().expected).toEqual(eur(3500));
  });

  it('the engine’s 409 SHIFT_NOT_OPEN opens the drawer dialog even when the page did not know; the payment goes through once it is open', async () => {
    await drawerStore.getState().refreshed();
    expect(drawerStore.getState().requireShift).toBe(false);
    await cartStore.getState().ticketsChosen([standing(1)]);
    await checkoutStore.getState().cashPaid();
    expect(checkoutStore.getState().error?.code).toBe('SHIFT_NOT_OPEN');
    await expect.poll(() => drawerStore.getState().dialog).toBe('open');
    expect(drawerStore.getState()).toMatchObject({ requireShift: true, forCash: true });

    await drawerStore.getState().openSubmitted(eur(2000));
    await expect.poll(() => checkoutStore.getState().order?.status).toBe('confirmed');
    expect(checkoutStore.getState().error).toBeNull();
  });

  it('close: the Z report is the engine’s (expected, counted, difference); a drawer counted by denomination', async () => {
    await drawerStore.getState().refreshed();
    drawerStore.getState().dialogRequested('open');
    await drawerStore.getState().openSubmitted(eur(10000));
    // two €50 notes, one €2 coin and three 10-cent coins
    const counted = countedTotal(denominationsOf('EUR'), { 5000: '2', 200: '1', 10: '3' });
    expect(counted).toBe(10230);
    drawerStore.getState().dialogRequested('close');
    await drawerStore.getState().closeSubmitted(eur(counted ?? 0), 'found €2.30');
    const closed = drawerStore.getState().closed;
    expect(closed).toMatchObject({ kind: 'Z', shift: { status: 'closed', expected: eur(10000), counted: eur(10230), difference: eur(230), note: 'found €2.30' } });
    expect(drawerStore.getState()).toMatchObject({ shift: null, expected: null, dialog: null });
    // a closed drawer takes no movement and no second close
    drawerStore.getState().dialogRequested('payIn');
    expect(drawerStore.getState().dialog).toBeNull();

    await shiftsStore.getState().todayRequested(new Date(Date.now() - 3_600_000).toISOString());
    const listed = shiftsStore.getState().today.find((report) => report.shift.id === closed?.shift.id);
    expect(listed).toEqual(closed);
  });
});

describe('counting by denomination', () => {
  it('adds up what was counted; an entry that is not a whole number of pieces gives no total', () => {
    expect(countedTotal(denominationsOf('EUR'), {})).toBe(0);
    expect(countedTotal(denominationsOf('JPY'), { 10000: '3', 500: '1', 1: '4' })).toBe(30504);
    expect(countedTotal(denominationsOf('USD'), { 25: '4', 1: '' })).toBe(100);
    expect(countedTotal(denominationsOf('EUR'), { 100: '1.5' })).toBeUndefined();
    expect(denominationsOf('XXX')).toEqual([]);
  });
});
