import { EngineError, type ErrorCode } from '../domain/errors';
import type { Order, PlaceOrderBody } from '../contract/order';
import type { PrintLanguage } from '../contract/printing';
import { chargeNeedsProvider } from '../domain/payment-attempt';
import type { AttemptRow } from '../store/checkout-repo';
import { beginCheckout, type StoredPayment } from './checkout-begin';
import { settleCheckout, type SettleOutcome } from './checkout-settle';
import type { EngineContext } from './context';
import { refundAttempt } from './refund-payment';

/**
 * POST /orders (spec §4.7, §7.6; contract §5–7): transaction, provider call outside any transaction,
 * transaction (which also keeps the sale's `language`, for printing). While a key's request runs in this process, the same key answers 409 IN_PROGRESS.
 */

export type PlaceOrderResult =
  | { readonly order: Order; readonly replayed: boolean }
  | { readonly error: EngineError; readonly replayed: true };

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export async function placeOrder(
  ctx: EngineContext,
  apiKey: { id: string; owner?: string; scopes: readonly string[] },
  idempotencyKey: string | undefined,
  body: PlaceOrderBody,
  language?: PrintLanguage,
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
    const start = await beginCheckout(ctx, { apiKeyId, apiKeyScopes: apiKey.scopes, ...(apiKey.owner !== undefined && { apiKeyOwner: apiKey.owner }), idempotencyKey: key, body }, ctx.now());
    if (start.kind === 'replay') return replay(start.status, start.body);
    // the attempt is on the disk before any provider hears of it: a charge is never made that a restart cannot find
    if (chargeNeedsProvider(start.attempt.method)) await ctx.whenDurable();
    const outcome = await charge(ctx, start.attempt);
    const settled = await settleCheckout(ctx, start.attempt, outcome, ctx.now(), language);
    if (settled.refund !== undefined) await refundAttempt(ctx, settled.refund);
    if ('error' in settled) throw settled.error;
    return { order: settled.order, replayed: false };
  } finally {
    ctx.inFlight.delete(flight);
  }
}

/**
 * Asks the provider, within the provider deadline (ctx.payments is bounded). When the charge has no answer
 * in time (or it was lost), the attempt is settled by asking the provider what became of its reference —
 * approved, or not charged and never to be — never by guessing. When that question has no answer either,
 * the attempt stays pending and the key in progress: the answer is 502, a retry with the same key asks
 * again under the same reference, and so do the sweeper and a restart.
 */
export async function charge(ctx: EngineContext, attempt: AttemptRow): Promise<SettleOutcome> {
  // Cash was taken at the desk; an external payment where the order was first sold; a total of 0 needs none.
  if (!chargeNeedsProvider(attempt.method)) return { status: 'approved' };
  const payment = JSON.parse(attempt.request) as StoredPayment;
  try {
    return await ctx.payments.charge({
      reference: attempt.id,
      shopperReference: attempt.cartId,
      amount: { amount: attempt.amount, currency: attempt.currency },
      token: payment.token ?? '',
      ...(payment.authenticationResult !== undefined && { authenticationResult: payment.authenticationResult }),
    });
  } catch (error) {
    return await askProvider(ctx, attempt.id, error);
  }
}

/** What the provider says of a reference whose charge went unanswered; throws 502 when it cannot say. */
export async function askProvider(ctx: EngineContext, reference: string, cause?: unknown): Promise<SettleOutcome> {
  let status: Awaited<ReturnType<EngineContext['payments']['status']>>;
  try {
    status = await ctx.payments.status(reference);
  } catch (error) {
    const reason = [cause, error].map((e) => (e instanceof Error ? e.message : 'no answer')).join('; ');
    throw new EngineError('PAYMENT_PROVIDER_UNAVAILABLE', { details: { reason } });
  }
  // refunded: the money went back on the provider's side, so no order is made of it
  return status === 'approved' ? { status: 'approved' } : { status: 'not_charged' };
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
