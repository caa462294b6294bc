import type { ChargeOutcome } from '../payments/provider';
import { immediate } from '../store/db';
import { settleCheckout } from './checkout-settle';
import type { EngineContext } from './context';

/**
 * Run at start: settles what a crash left open. A payment attempt still pending is settled by what the
 * provider says of its reference (cash was taken at the desk, so it stands); an approved charge becomes
 * its order exactly once. A refund not yet confirmed is asked for again.
 */
export async function settleOpenAttempts(ctx: EngineContext): Promise<{ orders: number; released: number; refunds: number }> {
  const counts = { orders: 0, released: 0, refunds: 0 };
  for (const attempt of ctx.checkout.openAttempts()) {
    if (attempt.state === 'refunding') {
      await ctx.payments.refund(attempt.id);
      immediate(ctx.db, () => ctx.checkout.setAttempt(attempt.id, 'refunded'));
      counts.refunds += 1;
      continue;
    }
    const charged = attempt.method !== 'card' || (await ctx.payments.status(attempt.id)) === 'approved';
    const outcome: ChargeOutcome = charged ? { status: 'approved' } : { status: 'unavailable' };
    const settled = settleCheckout(ctx, attempt, outcome, ctx.now());
    if (settled.refund !== undefined) await ctx.payments.refund(settled.refund);
    if ('order' in settled) counts.orders += 1;
    else counts.released += 1;
  }
  return counts;
}
