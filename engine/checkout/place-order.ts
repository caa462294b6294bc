import { EngineError, type ErrorCode } from '../domain/errors';
import type { Order, PlaceOrderBody } from '../contract/order';
import type { PrintLanguage } from '../contract/printing';
import { chargeNeedsProvider } from '../domain/payment-attempt';
import { beginCheckout } from './checkout-begin';
import { settleCheckout } from './checkout-settle';
import type { Clock, Durability, GiftCardGuesses, Ids, InFlight, Journalling, PaymentLease, Payments, ShiftRule, Storage, Syncing } from '../shared/context';
import { chargeAttempt, refundAttempt } from './payments/lifecycle';
import { holdAtHub, type GiftCardHub } from './hub-hold';

/**
 * POST /orders (spec §4.7, §7.6; contract §5–7): transaction, provider call outside any transaction,
 * transaction (which also keeps the sale's `language`, for printing). While a key's request runs in this process, the same key answers 409 IN_PROGRESS.
 */

export type PlaceOrderResult =
  | { readonly order: Order; readonly replayed: boolean }
  | { readonly error: EngineError; readonly replayed: true };

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export async function placeOrder(
  ctx: Storage & Clock & Ids & Syncing & Durability & Payments & PaymentLease & InFlight & GiftCardGuesses & Journalling & ShiftRule,
  apiKey: { id: string; owner?: string; scopes: readonly string[] },
  idempotencyKey: string | undefined,
  body: PlaceOrderBody,
  language?: PrintLanguage,
  /** at a terminal: its hub, where gift cards live and a checkout's parts are held (checkout/hub-hold.ts) */
  giftCardHub?: GiftCardHub,
): Promise<PlaceOrderResult> {
  const apiKeyId = apiKey.id;
  if (idempotencyKey === undefined || !UUID_V4.test(idempotencyKey)) {
    throw new EngineError('INVALID_IDEMPOTENCY_KEY', { param: 'Idempotency-Key' });
  }
  const key = idempotencyKey.toLowerCase();
  const flight = `${apiKeyId}\n${key}`;
  if (ctx.inFlight.has(flight)) throw new EngineError('IDEMPOTENCY_KEY_IN_PROGRESS');

  // in flight from before the first transaction: a second request that arrives while it runs (PostgreSQL runs
  // them side by side) must not take the key's open attempt for one that a crash left behind
  ctx.inFlight.add(flight);
  try {
    const start = await beginCheckout(
      ctx,
      { apiKeyId, apiKeyScopes: apiKey.scopes, ...(apiKey.owner !== undefined && { apiKeyOwner: apiKey.owner }), idempotencyKey: key, body, ...(giftCardHub !== undefined && { giftCardsAtHub: true }), cashNeedsShift: ctx.requireShift },
      ctx.now(),
    );
    if (start.kind === 'replay') return replay(start.status, start.body);
    // At a terminal, gift cards are held at the hub now, before anything is charged; what is left is charged below.
    const held = giftCardHub === undefined ? { attempt: start.attempt } : await holdAtHub(ctx, giftCardHub, start.attempt);
    if ('error' in held) throw held.error;
    const attempt = held.attempt;
    // the attempt is on the disk before any provider hears of it: a charge is never made that a restart cannot find
    if (chargeNeedsProvider(attempt.method)) await ctx.whenDurable();
    const settled = await chargeAttempt(ctx, attempt)
      .then((outcome) => settleCheckout(ctx, attempt, outcome, ctx.now(), language))
      .catch(async (error: unknown) => {
        // No answer from the provider, not even about the reference (502), or the database went away before the
        // settlement (503): the attempt stays pending, and a retry with the key — on any engine process — may ask
        // again at once. Should the lease not be given up (the database still away), it runs out by itself.
        await ctx.store.repos.checkout.releaseAttempt(attempt.id).catch(() => undefined);
        throw error;
      });
    if (settled.refund !== undefined) await refundAttempt(ctx, settled.refund);
    if ('error' in settled) throw settled.error;
    // another engine process settled this key's attempt first (contract §16): its order, answered as a replay
    return { order: settled.order, replayed: settled.replayed === true };
  } finally {
    ctx.inFlight.delete(flight);
  }
}

function replay(status: number, body: unknown): PlaceOrderResult {
  if (status === 201 && isOrderBody(body)) return { order: body, replayed: true };
  if (isStoredError(body)) {
    const { code, param, details } = body.error;
    return { error: new EngineError(code, { ...(param !== undefined && { param }), ...(details !== undefined && { details }) }), replayed: true };
  }
  throw new Error(`unreadable idempotency record (status ${status})`);
}

function isOrderBody(body: unknown): body is Order {
  return typeof body === 'object' && body !== null && 'id' in body && 'tickets' in body;
}

function isStoredError(body: unknown): body is { error: { code: ErrorCode; param?: string; details?: Record<string, unknown> } } {
  return typeof body === 'object' && body !== null && 'error' in body;
}
