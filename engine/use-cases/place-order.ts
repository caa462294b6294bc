import { EngineError, type ErrorCode } from '../domain/errors';
import type { Order, PlaceOrderBody } from '../contract/order';
import type { ChargeOutcome } from '../payments/provider';
import type { AttemptRow } from '../store/checkout-repo';
import { beginCheckout, type StoredPayment } from './checkout-begin';
import { settleCheckout } from './checkout-settle';
import type { EngineContext } from './context';

/**
 * POST /orders (spec §4.7, §7.6; contract §5–7): transaction, provider call outside any transaction,
 * transaction. While a key's request runs in this process, the same key answers 409 IN_PROGRESS.
 */

export type PlaceOrderResult =
  | { readonly order: Order; readonly replayed: boolean }
  | { readonly error: EngineError; readonly replayed: true };

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export async function placeOrder(
  ctx: EngineContext,
  apiKey: { id: string; scopes: readonly string[] },
  idempotencyKey: string | undefined,
  body: PlaceOrderBody,
): Promise<PlaceOrderResult> {
  const apiKeyId = apiKey.id;
  if (idempotencyKey === undefined || !UUID_V4.test(idempotencyKey)) {
    throw new EngineError('INVALID_IDEMPOTENCY_KEY', { param: 'Idempotency-Key' });
  }
  const key = idempotencyKey.toLowerCase();
  const flight = `${apiKeyId}\n${key}`;
  if (ctx.inFlight.has(flight)) throw new EngineError('IDEMPOTENCY_KEY_IN_PROGRESS');

  const start = beginCheckout(ctx, { apiKeyId, apiKeyScopes: apiKey.scopes, idempotencyKey: key, body }, ctx.now());
  if (start.kind === 'replay') return replay(start.status, start.body);

  ctx.inFlight.add(flight);
  try {
    const outcome = await charge(ctx, start.attempt);
    const settled = settleCheckout(ctx, start.attempt, outcome, ctx.now());
    if (settled.refund !== undefined) await ctx.payments.refund(settled.refund);
    if ('error' in settled) throw settled.error;
    return { order: settled.order, replayed: false };
  } finally {
    ctx.inFlight.delete(flight);
  }
}

/**
 * Asks the provider. A provider that does not answer leaves the attempt pending and the key in progress:
 * the answer is 502, a retry with the same key asks again under the same reference, and so does a restart.
 */
export async function charge(ctx: EngineContext, attempt: AttemptRow): Promise<ChargeOutcome> {
  // Cash was taken at the desk; an external payment was taken where the order was first sold.
  if (attempt.method === 'cash' || attempt.method === 'external') return { status: 'approved' };
  const payment = JSON.parse(attempt.request) as StoredPayment;
  try {
    return await ctx.payments.charge({
      reference: attempt.id,
      amount: { amount: attempt.amount, currency: attempt.currency },
      token: payment.token ?? '',
      ...(payment.authenticationResult !== undefined && { authenticationResult: payment.authenticationResult }),
    });
  } catch (error) {
    throw new EngineError('PAYMENT_PROVIDER_UNAVAILABLE', { details: { reason: error instanceof Error ? error.message : 'no answer' } });
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
