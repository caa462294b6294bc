import type { PrintLanguage } from '../contract/printing';
import type { Db } from './db';

/**
 * The language an order was sold in (table order_languages): the Accept-Language of its checkout, kept so its
 * tickets and receipt print in it (contract §12) whoever prints them later, and so a replay of the checkout
 * answers its original body in it. The first one recorded stays. Runs in the caller's transaction.
 */
export function createOrderLanguageRepo(db: Db) {
  const insert = db.prepare<[string, string]>('INSERT OR IGNORE INTO order_languages (order_id, language) VALUES (?, ?)');
  const select = db.prepare<[string], { language: PrintLanguage }>('SELECT language FROM order_languages WHERE order_id = ?');
  return {
    /** records the order's language unless one is recorded already (the first stays) */
    remember: (orderId: string, language: PrintLanguage): void => void insert.run(orderId, language),
    /** the language recorded for an order (undefined: none yet — its checkout's answer was never given) */
    language: (orderId: string): PrintLanguage | undefined => select.get(orderId)?.language,
  };
}

export type OrderLanguageRepo = ReturnType<typeof createOrderLanguageRepo>;
