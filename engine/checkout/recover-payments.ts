import type { AttemptRow } from '../store/checkout-repo';
import { chargeNeedsProvider } from '../domain/payment-attempt';
import { abandonHubCheckout, settleCheckout } from './checkout-settle';
import { hubGiftCardsOf } from './hub-hold';
import type { Clock, Durability, Ids, InFlight, Journalling, PaymentLease, Payments, Storage, Syncing } from '../shared/context';
import { chargeOutcome, refundAttempt } from './payments/lifecycle';

/**
 * Run at start, and by the sweeper for attempts open longer than the provider deadline: settles what a
 * crash, a lost answer or a provider that never answered left open. A pending card attempt is settled by
 * what the provider says of its reference (approved, or not charged — the provider then never takes it);
 * cash, external and zero payments were taken without a provider, so they stand. An approved charge becomes
 * its order exactly once, built from the cart as priced for the attempt — except a terminal's checkout with
 * gift-card parts at its hub, which fails (its hold released, a card remainder refunded: abandonHubCheckout). An unconfirmed refund is asked again.
 *
 * Several engine processes may share the database (contract §16), each sweeping: an attempt is settled only by
 * the one that takes its lease (checkout.claimAttempt), and one whose lease another request or sweep holds is
 * left to it — a checkout still running on another process, or another sweep already at it. `exclusive`: this
 * process is the database's only user (SQLite, at start): whatever is open was left by a crash, leases and all.
 */
export async function settleOpenAttempts(ctx: Storage & Clock & Ids & Syncing & Durability & Payments & PaymentLease & InFlight & Journalling, options: { olderThanMs?: number; exclusive?: boolean } = {}): Promise<{ orders: number; released: number; refunds: number; failed: number }> {
  const counts = { orders: 0, released: 0, refunds: 0, failed: 0 };
  const before = ctx.now() - (options.olderThanMs ?? 0);
  for (const attempt of await ctx.store.repos.checkout.openAttempts()) {
    // A request still running in this process settles its own attempt (it is bounded by the deadline).
    if (attempt.createdAt > before || ctx.inFlight.has(`${attempt.apiKeyId}\n${attempt.idempotencyKey}`)) continue;
    const now = ctx.now();
    if (options.exclusive !== true && !(await ctx.store.repos.checkout.claimAttempt(attempt.id, now, now + ctx.paymentLeaseMs))) continue;
    try {
      await settleOne(ctx, attempt, counts);
    } catch {
      counts.failed += 1; // the provider cannot answer now: the next pass asks again
    } finally {
      // still open (no answer, a refund unconfirmed): the next pass, of any process, may take it at once
      if (options.exclusive !== true) await ctx.store.repos.checkout.releaseAttempt(attempt.id);
    }
  }
  return counts;
}

async function settleOne(ctx: Storage & Clock & Ids & Syncing & Durability & Payments & Journalling, attempt: AttemptRow, counts: { orders: number; released: number; refunds: number; failed: number }): Promise<void> {
  if (attempt.state === 'refunding') {
    if (await refundAttempt(ctx, attempt.id)) counts.refunds += 1;
    else counts.failed += 1;
    return;
  }
  const outcome = await chargeOutcome(ctx, attempt);
  // a terminal's checkout with gift-card parts at its hub is never made an order on a guess: it fails, its hold released
  const settled = hubGiftCardsOf(attempt) === undefined
    ? await settleCheckout(ctx, attempt, outcome, ctx.now())
    : await abandonHubCheckout(ctx, attempt, outcome.status === 'approved' && chargeNeedsProvider(attempt.method), ctx.now());
  if (settled.refund !== undefined) await refundAttempt(ctx, settled.refund);
  if ('order' in settled) counts.orders += 1;
  else counts.released += 1;
}
