import type { Retrier } from './retry';
import type { Upstream, UpstreamAnswer } from './upstream';

/**
 * The upstream as deliveries see it: every request goes through the worker's retry rules (retry.ts). A
 * request is repeated after a lost answer only when that is safe — reads, sets (PATCH, DELETE, a voucher,
 * a cancellation), anything with an Idempotency-Key — and POST /carts, whose lost answer can leave only
 * a hold the delivery already knows how to wait out. Adding extras (POST /carts/{id}/items) is not:
 * its delivery reads the cart again instead.
 */
export interface Channel {
  get(path: string): Promise<UpstreamAnswer>;
  /** `onAnswer` is told of every attempt's answer, with when it was sent */
  post(path: string, body?: unknown, options?: { idempotencyKey?: string; repeatable?: boolean; onAnswer?: (answer: UpstreamAnswer, sentAt: number) => void }): Promise<UpstreamAnswer>;
  patch(path: string, body: unknown): Promise<UpstreamAnswer>;
  delete(path: string): Promise<UpstreamAnswer>;
}

export function createChannel(upstream: Upstream, retrier: Retrier, signal: AbortSignal, now: () => number = Date.now): Channel {
  return {
    get: (path) => retrier.send(() => upstream.get(path), true, signal),
    post: (path, body, options = {}) =>
      retrier.send(
        async () => {
          const sentAt = now();
          const answer = await upstream.post(path, body, options.idempotencyKey);
          options.onAnswer?.(answer, sentAt);
          return answer;
        },
        options.repeatable ?? options.idempotencyKey !== undefined,
        signal,
      ),
    patch: (path, body) => retrier.send(() => upstream.patch(path, body), true, signal),
    delete: (path) => retrier.send(() => upstream.delete(path), true, signal),
  };
}
