import type { PrintLanguage } from '../../contract/printing';
import type { OrderLanguageRepo } from '../order-language-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/order-language-repo.ts: the language an order was sold in. The first one recorded
 * stays: INSERT … ON CONFLICT DO NOTHING, atomic when two processes record one order's language at once.
 */
export function createPgOrderLanguageRepo(q: Queryable): Async<OrderLanguageRepo> {
  return {
    async remember(orderId: string, language: PrintLanguage): Promise<undefined> {
      await q.query('INSERT INTO order_languages (order_id, language) VALUES ($1, $2) ON CONFLICT DO NOTHING', [orderId, language]);
      return undefined;
    },
    async language(orderId: string): Promise<PrintLanguage | undefined> {
      return (await q.query<{ language: PrintLanguage }>('SELECT language FROM order_languages WHERE order_id = $1', [orderId])).rows[0]?.language;
    },
  };
}
