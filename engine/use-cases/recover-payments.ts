import type { ChargeOutcome } from '../payments/provider';
import type { AttemptRow } from '../store/checkout-repo';
import { immediate } from '../store/db';
import { settleCheckout } from './checkout-settle';
import type { EngineContext } from './context';

/**
 * Run at start, and by the sweeper for attempts open longer than a minute (a provider that never answered):
 * settles what a crash or a lost answer left open. A pending payment attempt is settled by what the provider
 * says of its reference (cash was taken at the desk, so it stands); an approved charge becomes its order
 * exactly once, built from the cart as priced for the attempt. A refund not yet confirmed is asked again.
 */
export async function settleOpenAttempts(ctx: EngineContext, options: { olderThanMs?: number } = {}): Promise<{ orders: number; released: number; refunds: number; failed: number }> {
  const counts = { orders: 0, released: 0, refunds: 0, failed: 0 };
  const before = ctx.now() - (options.olderThanMs ?? 0);
  for (const attempt of ctx.checkout.openAttempts()) {
    // A request still running in this process settles its own attempt.
    if (attempt.createdAt > before || ctx.inFlight.has(`${attempt.apiKeyId}\n${attempt.idempotencyKey}`)) continue;
    try {
      await settleOne(ctx, attempt, counts);
    } catch {
      counts.failed += 1; // the provider cannot answer now: the next pass asks again
    }
  }
  return counts;
}

async function settleOne(ctx: EngineContext, attempt: AttemptRow, counts: { orders: number; released: number; refunds: number }): Promise<void> {
  if (attempt.state === 'refunding') {
    await ctx.payments.refund(attempt.id);
    immediate(ctx.db, () => ctx.checkout.setAttempt(attempt.id, 'refunded'));
    counts.refunds += 1;
    return;
  }
  const charged = attempt.method !== 'card' || (await ctx.payments.status(attempt.id)) === 'approved';
  const outcome: ChargeOutcome = charged ? { status: 'approved' } : { status: 'unavailable' };
  const settled = settleCheckout(ctx, attempt, outcome, ctx.now());
  if (settled.refund !== undefined) await ctx.payments.refund(settled.refund);
  if ('order' in settled) counts.orders += 1;
  else counts.released += 1;
}
