import type { PrintLanguage } from '../contract/printing';
import type { Db } from './db';

/**
 * The language an order was sold in (its checkout's Accept-Language), so its tickets and receipt print in it
 * (contract §12) and a replay of the checkout answers in it. The first one recorded stays.
 */
export function createOrderLanguageRepo(db: Db) {
  const insert = db.prepare<[string, string]>('INSERT OR IGNORE INTO order_languages (order_id, language) VALUES (?, ?)');
  const select = db.prepare<[string], { language: PrintLanguage }>('SELECT language FROM order_languages WHERE order_id = ?');
  return {
    remember: (orderId: string, language: PrintLanguage): void => void insert.run(orderId, language),
    /** undefined: none recorded yet (its checkout's answer was never given) */
    language: (orderId: string): PrintLanguage | undefined => select.get(orderId)?.language,
  };
}

export type OrderLanguageRepo = ReturnType<typeof createOrderLanguageRepo>;
