import { ERROR_CATALOGUE, EngineError, type ErrorCode } from '../domain/errors';
import Value from 'typebox/value';
import { GiftCardView } from '../contract/gift-card';
import type { Money } from '../domain/money';
import type { GiftCardHub, HeldPart } from '../checkout/hub-hold';
import type { Channel } from './channel';
import { refused, type Delivery } from './refusal';
import { createUpstream, dataOf, errorOf, type UpstreamAnswer } from './upstream';

/**
 * A terminal's gift cards live at its hub (issue #24, contract §13 and §10): their balance is read there, and a
 * checkout's parts are held there, within the request, with the terminal's upstream key. What the hub answers is
 * passed on (its status, code, param and details, told in the caller's language by this engine); a hub that
 * cannot be reached — no connection, no answer in time, a 5xx, a key it refuses, no such endpoint — is 503
 * UPSTREAM_UNAVAILABLE: a gift card is never spent on a guess, so it is never spent twice on two tills.
 */

/** How long a request of a customer waits for the hub before the till says it is unavailable. */
export const HUB_GIFT_CARD_TIMEOUT_MS = 5000;

export interface HubGiftCards extends GiftCardHub {
  /** GET /gift-cards/{code} at the hub: its card, or its refusal, as an EngineError to answer */
  lookup(code: string): Promise<{ readonly data: GiftCardView } | { readonly error: EngineError }>;
}

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CATALOGUE, code);

const unavailable = (reason: string): EngineError => new EngineError('UPSTREAM_UNAVAILABLE', { details: { reason } });

/** Why an answer means the hub cannot be used now; undefined when it answered for itself (a success or a refusal). */
function unreachable(answer: UpstreamAnswer): string | undefined {
  if (answer.status === 0) return 'hub_unreachable';
  if (answer.status >= 500) return 'hub_unavailable';
  // the terminal's key refused (an admin must act), or a hub without gift cards: not the caller's mistake
  if (answer.status === 401 || answer.status === 403) return 'hub_refuses_key';
  if (answer.status === 404 && errorOf(answer)?.code !== 'GIFT_CARD_NOT_FOUND') return 'hub_without_gift_cards';
  return undefined;
}

/**
 * The hub's refusal, as this engine's error: same code and details; a param naming the hub's `cards[i]` is the
 * checkout's `payment.giftCards[i]`. A code this engine does not know (a newer hub) is the hub being unusable.
 */
export function hubRefusal(answer: UpstreamAnswer): EngineError {
  const error = errorOf(answer);
  if (!error || !isErrorCode(error.code)) return unavailable('hub_answer_unknown');
  const body = answer.body;
  const rawParam = typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object' && body.error !== null && 'param' in body.error ? body.error.param : undefined;
  const param = typeof rawParam === 'string' ? rawParam.replace(/^cards(?=\[)/, 'payment.giftCards') : undefined;
  const details = error.code === 'RATE_LIMIT_EXCEEDED' ? { ...error.details, retryAfter: answer.retryAfter ?? error.details.retryAfter ?? 1 } : error.details;
  return new EngineError(error.code, { ...(param !== undefined && { param }), ...(Object.keys(details).length > 0 && { details }) });
}

/** The hub's gift cards, asked within a request with the terminal's upstream key. */
export function createHubGiftCards(options: { url: string; key: string; timeoutMs?: number }): HubGiftCards {
  const hub = createUpstream({ url: options.url, key: options.key, timeoutMs: options.timeoutMs ?? HUB_GIFT_CARD_TIMEOUT_MS });
  return {
    async lookup(code) {
      const answer = await hub.get(`/gift-cards/${encodeURIComponent(code)}`);
      const reason = unreachable(answer);
      if (reason !== undefined) return { error: unavailable(reason) };
      if (answer.status !== 200) return { error: hubRefusal(answer) };
      const data = dataOf<unknown>(answer);
      return Value.Check(GiftCardView, data) ? { data } : { error: unavailable('hub_answer_unknown') };
    },
    async hold(request) {
      const answer = await hub.post('/hub/gift-card-holds', request);
      const reason = unreachable(answer);
      // Sent and not answered (or answered 5xx): the hub may hold the parts. Never sent, or refused before
      // anything was done (its key, no such endpoint): it holds nothing.
      if (reason !== undefined) return { kind: 'unavailable', maybeHeld: answer.status >= 500 || (answer.status === 0 && answer.unsent !== true), error: unavailable(reason) };
      const held = answer.status === 200 ? dataOf<{ cards?: unknown }>(answer)?.cards : undefined;
      if (answer.status === 200) {
        const parts = Array.isArray(held) ? held.flatMap(partOf) : [];
        if (Array.isArray(held) && parts.length === held.length) return { kind: 'held', parts };
        return { kind: 'unavailable', maybeHeld: true, error: unavailable('hub_answer_unknown') };
      }
      return { kind: 'refused', error: hubRefusal(answer) };
    },
  };
}

function partOf(value: unknown): HeldPart[] {
  if (typeof value !== 'object' || value === null || !('code' in value) || !('amount' in value) || typeof value.code !== 'string') return [];
  const amount = moneyOf(value.amount);
  if (amount === undefined) return [];
  const balanceAfter = 'balanceAfter' in value ? moneyOf(value.balanceAfter) : undefined;
  return [{ code: value.code, amount, ...(balanceAfter !== undefined && { balanceAfter }) }];
}

function moneyOf(value: unknown): Money | undefined {
  if (typeof value !== 'object' || value === null || !('amount' in value) || !('currency' in value)) return undefined;
  const { amount, currency } = value;
  return typeof amount === 'number' && Number.isSafeInteger(amount) && typeof currency === 'string' ? { amount, currency } : undefined;
}

/**
 * How long, in sync base steps (1 s each by default), a release that found nothing held asks once more: a hold
 * request the terminal gave up on (no answer within HUB_GIFT_CARD_TIMEOUT_MS) may still be carried out by a slow hub
 * after the release, and would then stay held.
 */
export const LATE_HOLD_STEPS = 10;

/**
 * Delivers a `gift-card-release` entry: POST /hub/gift-card-holds/{reference}/release, idempotent at the hub, so
 * a lost answer is simply asked again. A hub that knows no hold of that reference (404) holds nothing of it:
 * delivered as well. A first release that found nothing held is asked once more LATE_HOLD_STEPS later (a late
 * hold). Anything else follows the sync rules (refusal.ts).
 */
export async function deliverRelease(hub: Channel, reference: string, firstTry: boolean): Promise<Delivery> {
  const answer = await hub.post(`/hub/gift-card-holds/${encodeURIComponent(reference)}/release`, {}, { repeatable: true });
  if (answer.status === 200) {
    const data = dataOf<{ released?: unknown; cards?: unknown }>(answer);
    const nothing = data?.released === false && Array.isArray(data.cards) && data.cards.length === 0;
    if (firstTry && nothing) return { kind: 'retry', reason: 'nothing was held yet: asked once more in case a late hold arrives', afterSteps: LATE_HOLD_STEPS };
    return { kind: 'delivered', upstreamOrderId: null };
  }
  if (answer.status === 404 && errorOf(answer)?.code !== 'INSUFFICIENT_PERMISSIONS') return { kind: 'delivered', upstreamOrderId: null };
  return refused(answer);
}
