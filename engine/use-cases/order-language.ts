import type Database from 'better-sqlite3';
import type { PrintLanguage } from '../contract/printing';
import type { Db } from '../store/db';

/**
 * The language an order was sold in: the Accept-Language of its checkout, kept so its tickets and receipt
 * print in it (contract §12) whoever prints them later. The first one recorded stays.
 */
const statements = new WeakMap<Db, Database.Statement<[string, string]>>();

export function rememberOrderLanguage(db: Db, orderId: string, language: PrintLanguage): void {
  let insert = statements.get(db);
  if (!insert) {
    insert = db.prepare<[string, string]>('INSERT OR IGNORE INTO order_languages (order_id, language) VALUES (?, ?)');
    statements.set(db, insert);
  }
  insert.run(orderId, language);
}
