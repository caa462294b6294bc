import { errorOf, type UpstreamAnswer } from './upstream';

/** What became of one outbox entry's delivery attempt; the worker records it. */
export type Delivery =
  | { readonly kind: 'delivered'; readonly upstreamOrderId: string | null }
  | {
      readonly kind: 'retry';
      readonly reason: string;
      /** wait this many base steps (1 s each by default) before the entry goes again; the worker's own waits still apply */
      readonly afterSteps?: number;
      /** the upstream cart is gone: the next attempt starts with a new one */
      readonly newCart?: boolean;
      /** the upstream answered nothing (5xx or silence) after every attempt */
      readonly offline?: boolean;
      /** the upstream refused the sync key (401) or its scope (403 INSUFFICIENT_PERMISSIONS): nothing can go until that is fixed */
      readonly keyRejected?: boolean;
      /** the upstream no longer offers what this delivery used (the import endpoint answered 404): ask it again */
      readonly rediscover?: boolean;
    }
  | { readonly kind: 'conflict'; readonly code: string; readonly message: string };

/**
 * What an answer other than success means: the upstream is down or busy (retry: the retry rules already
 * waited), the upstream cart is gone (start again with a new one), the order is already there (delivered),
 * the key is refused (everything waits, and the status says so), or a refusal for good (the conflict
 * inbox — never dropped, never retried blindly).
 */
export function refused(answer: UpstreamAnswer): Delivery {
  const error = errorOf(answer);
  if (answer.status === 0) return { kind: 'retry', reason: 'upstream unreachable', offline: true };
  if (answer.status >= 500) return { kind: 'retry', reason: `upstream answered ${answer.status}${error ? ` ${error.code}` : ''}`, offline: true };
  if (answer.status === 429) return { kind: 'retry', reason: 'rate limited' };
  if (error?.code === 'CART_ALREADY_ORDERED') {
    const orderId = error.details.orderId;
    return { kind: 'delivered', upstreamOrderId: typeof orderId === 'string' ? orderId : null };
  }
  if (answer.status === 410) return { kind: 'retry', reason: 'the upstream cart expired: a new one', afterSteps: 0, newCart: true };
  if (error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS' || error?.code === 'CART_CHECKOUT_IN_PROGRESS') return { kind: 'retry', reason: error.code, afterSteps: 1 };
  if (answer.status === 401 || error?.code === 'INSUFFICIENT_PERMISSIONS') {
    return { kind: 'retry', reason: `the upstream refused the sync key (${error?.code ?? answer.status})`, keyRejected: true };
  }
  return { kind: 'conflict', code: error?.code ?? `HTTP_${answer.status}`, message: error?.message ?? '' };
}
