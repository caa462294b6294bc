import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../engine/sync/channel';
import { LATE_HOLD_STEPS, deliverRelease, hubRefusal } from '../../../engine/sync/hub-gift-cards';
import type { UpstreamAnswer } from '../../../engine/sync/upstream';

/** A terminal's gift-card client (issue #24): how it reads the hub's answers to a release and to a refused hold. */

const answered = (status: number, body: unknown, retryAfter?: number): UpstreamAnswer => ({ status, body, retryAfter });

function channel(answer: UpstreamAnswer, paths: string[] = []): Channel {
  const one = async (path: string) => {
    paths.push(path);
    return answer;
  };
  return { get: one, post: one, patch: one, delete: one };
}

describe('deliverRelease', () => {
  it('a release that dropped holds is delivered', async () => {
    const paths: string[] = [];
    const outcome = await deliverRelease(channel(answered(200, { data: { reference: 'pay_1', cards: [], released: true } }), paths), 'pay_1', true);
    expect(outcome).toEqual({ kind: 'delivered', upstreamOrderId: null });
    expect(paths).toEqual(['/hub/gift-card-holds/pay_1/release']);
  });

  it('a first release that found nothing held asks once more later (a hold the hub carried out late); the second is final', async () => {
    const nothing = answered(200, { data: { reference: 'pay_1', cards: [], released: false } });
    expect(await deliverRelease(channel(nothing), 'pay_1', true)).toMatchObject({ kind: 'retry', afterSteps: LATE_HOLD_STEPS });
    expect(await deliverRelease(channel(nothing), 'pay_1', false)).toEqual({ kind: 'delivered', upstreamOrderId: null });
  });

  it('holds already settled into the imported order stay: delivered', async () => {
    const settled = answered(200, { data: { reference: 'pay_1', cards: [{ code: 'A', amount: { amount: 100, currency: 'EUR' } }], released: false } });
    expect(await deliverRelease(channel(settled), 'pay_1', true)).toEqual({ kind: 'delivered', upstreamOrderId: null });
  });

  it('a hub that has no such endpoint holds nothing (delivered); a refused key waits; silence retries', async () => {
    expect(await deliverRelease(channel(answered(404, { error: { code: 'RESOURCE_NOT_FOUND' } })), 'pay_1', true)).toEqual({ kind: 'delivered', upstreamOrderId: null });
    expect(await deliverRelease(channel(answered(403, { error: { code: 'INSUFFICIENT_PERMISSIONS' } })), 'pay_1', true)).toMatchObject({ kind: 'retry', keyRejected: true });
    expect(await deliverRelease(channel(answered(0, undefined)), 'pay_1', true)).toMatchObject({ kind: 'retry', offline: true });
  });
});

describe('hubRefusal', () => {
  it("names the checkout's part for the hub's cards[i], keeps the code and details", () => {
    const error = hubRefusal(answered(402, { error: { code: 'GIFT_CARD_INSUFFICIENT_BALANCE', param: 'cards[1]', details: { balance: { amount: 0, currency: 'EUR' } } } }));
    expect({ code: error.code, status: error.status, param: error.param, details: error.details }).toEqual({
      code: 'GIFT_CARD_INSUFFICIENT_BALANCE',
      status: 402,
      param: 'payment.giftCards[1]',
      details: { balance: { amount: 0, currency: 'EUR' } },
    });
  });

  it("keeps the hub's Retry-After on 429; an unknown code is the hub being unusable", () => {
    expect(hubRefusal(answered(429, { error: { code: 'RATE_LIMIT_EXCEEDED', details: { retryAfter: 7 } } }, 9)).details).toEqual({ retryAfter: 9 });
    expect(hubRefusal(answered(409, { error: { code: 'SOMETHING_NEWER' } }))).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', details: { reason: 'hub_answer_unknown' } });
  });
});
