import type { Db } from './db';

/** v1 basket references (per channel) and the v3 cart each names now; and the v1 usage counters. */
export function createBasketRepo(db: Db) {
  const get = db.prepare<[string, string], { cartId: string }>('SELECT cart_id AS cartId FROM v1_baskets WHERE channel_id = ? AND reference = ?');
  const put = db.prepare<[string, string, string, string]>(`
    INSERT INTO v1_baskets (channel_id, reference, cart_id, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (channel_id, reference) DO UPDATE SET cart_id = excluded.cart_id, updated_at = excluded.updated_at`);
  const count = db.prepare<[string, string, number, string, string]>(`
    INSERT INTO v1_usage (channel_id, route, calls, errors, first_at, last_at) VALUES (?, ?, 1, ?, ?, ?)
    ON CONFLICT (channel_id, route) DO UPDATE SET calls = calls + 1, errors = errors + excluded.errors, last_at = excluded.last_at`);
  const usage = db.prepare<[], { channelId: string; route: string; calls: number; errors: number; firstAt: string; lastAt: string }>(`
    SELECT channel_id AS channelId, route, calls, errors, first_at AS firstAt, last_at AS lastAt FROM v1_usage ORDER BY channel_id, route`);

  return {
    cartOf: (channelId: string, reference: string): string | undefined => get.get(channelId, reference)?.cartId,
    point(channelId: string, reference: string, cartId: string, now: number): void {
      put.run(channelId, reference, cartId, new Date(now).toISOString());
    },
    countCall(channelId: string, route: string, failed: boolean, now: number): void {
      const at = new Date(now).toISOString();
      count.run(channelId, route, failed ? 1 : 0, at, at);
    },
    usage: () => usage.all(),
  };
}

export type BasketRepo = ReturnType<typeof createBasketRepo>;
