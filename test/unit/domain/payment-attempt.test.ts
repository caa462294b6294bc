import { describe, expect, it } from 'vitest';
import { ATTEMPT_STATES, IllegalTransition, nextAttemptState, type AttemptEvent, type AttemptState } from '../../../engine/domain/payment-attempt';
import { mayJoin, voucherConflict } from '../../../engine/domain/voucher-policy';

/** The payment-attempt lifecycle (engine/domain/payment-attempt): every legal move, and every other one refused. */

const EVENTS: readonly AttemptEvent[] = [
  { type: 'captured' },
  { type: 'failed', outcome: 'declined' },
  { type: 'orphaned' },
  { type: 'cancelled' },
  { type: 'refund_confirmed', at: 1000 },
];

const LEGAL: ReadonlyArray<[AttemptState, AttemptEvent['type'], AttemptState]> = [
  ['pending', 'captured', 'captured'],
  ['pending', 'failed', 'failed'],
  ['pending', 'orphaned', 'refunding'],
  ['captured', 'cancelled', 'refunding'],
  ['refunding', 'refund_confirmed', 'refunded'],
];

describe('payment-attempt lifecycle', () => {
  it('has exactly the documented moves', () => {
    for (const from of ATTEMPT_STATES) {
      for (const event of EVENTS) {
        const legal = LEGAL.find(([f, e]) => f === from && e === event.type);
        if (legal) expect(nextAttemptState(from, event)).toBe(legal[2]);
        else expect(() => nextAttemptState(from, event), `${from} + ${event.type}`).toThrow(IllegalTransition);
      }
    }
  });

  it('never refunds twice: a refunded attempt takes no event at all', () => {
    for (const event of EVENTS) expect(() => nextAttemptState('refunded', event)).toThrow(IllegalTransition);
  });

  it('never captures without passing through pending, and a failed attempt stays failed', () => {
    expect(() => nextAttemptState('failed', { type: 'captured' })).toThrow(IllegalTransition);
    expect(() => nextAttemptState('refunding', { type: 'captured' })).toThrow(IllegalTransition);
  });
});

describe('voucher policy', () => {
  const solo = (code: string) => ({ code, combinable: false });
  const combo = (code: string) => ({ code, combinable: true });

  it('one voucher is always allowed; two only when both combine', () => {
    expect(voucherConflict([solo('A')])).toBeUndefined();
    expect(voucherConflict([combo('A'), combo('B')])).toBeUndefined();
    expect(voucherConflict([combo('A'), solo('B')])).toBe('B');
    expect(voucherConflict([solo('A'), combo('B')])).toBe('A');
  });

  it('a code already in the cart may always be applied again', () => {
    expect(mayJoin([solo('A')], solo('A'))).toBe(true);
    expect(mayJoin([solo('A')], combo('B'))).toBe(false);
    expect(mayJoin([combo('A')], combo('B'))).toBe(true);
    expect(mayJoin([], solo('A'))).toBe(true);
  });
});
