import type { BasketRepo } from '../basket-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/basket-repo.ts: v1 basket references (per channel), the v3 cart each names, and the
 * v1 usage counters. Both writes are single upserts (INSERT … ON CONFLICT DO UPDATE), atomic under concurrency:
 * two calls counted at once both count. The target table's columns are qualified in SET (PostgreSQL would find
 * `calls` ambiguous between the row and EXCLUDED).
 */
export function createPgBasketRepo(q: Queryable): Async<BasketRepo> {
  return {
    async cartOf(channelId: string, reference: string): Promise<string | undefined> {
      const { rows } = await q.query<{ cartId: string }>('SELECT cart_id AS "cartId" FROM v1_baskets WHERE channel_id = $1 AND reference = $2',
        [channelId, reference]);
      return rows[0]?.cartId;
    },
    async point(channelId: string, reference: string, cartId: string, now: number): Promise<void> {
      await q.query(`INSERT INTO v1_baskets (channel_id, reference, cart_id, updated_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (channel_id, reference) DO UPDATE SET cart_id = EXCLUDED.cart_id, updated_at = EXCLUDED.updated_at`,
      [channelId, reference, cartId, new Date(now).toISOString()]);
    },
    async countCall(channelId: string, route: string, failed: boolean, now: number): Promise<void> {
      const at = new Date(now).toISOString();
      await q.query(`INSERT INTO v1_usage (channel_id, route, calls, errors, first_at, last_at) VALUES ($1, $2, 1, $3, $4, $4)
        ON CONFLICT (channel_id, route) DO UPDATE SET calls = v1_usage.calls + 1, errors = v1_usage.errors + EXCLUDED.errors,
          last_at = EXCLUDED.last_at`, [channelId, route, failed ? 1 : 0, at]);
    },
    async usage() {
      const { rows } = await q.query<{ channelId: string; route: string; calls: number; errors: number; firstAt: string; lastAt: string }>(`
        SELECT channel_id AS "channelId", route, calls, errors, first_at AS "firstAt", last_at AS "lastAt" FROM v1_usage
        ORDER BY channel_id COLLATE "C", route COLLATE "C"`);
      return rows;
    },
  };
}
