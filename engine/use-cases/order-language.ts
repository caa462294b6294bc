import type Database from 'better-sqlite3';
import type { PrintLanguage } from '../contract/printing';
import type { Db } from '../store/db';

/**
 * The language an order was sold in: the Accept-Language of its checkout, kept so its tickets and receipt
 * print in it (contract §12) whoever prints them later, and so a replay of the checkout answers its original
 * body in it (README, "Decisions where the spec and contract are silent"). The first one recorded stays.
 */
interface Statements {
  readonly insert: Database.Statement<[string, string]>;
  readonly select: Database.Statement<[string], { language: PrintLanguage }>;
}

const statements = new WeakMap<Db, Statements>();

function prepared(db: Db): Statements {
  let found = statements.get(db);
  if (!found) {
    found = {
      insert: db.prepare<[string, string]>('INSERT OR IGNORE INTO order_languages (order_id, language) VALUES (?, ?)'),
      select: db.prepare<[string], { language: PrintLanguage }>('SELECT language FROM order_languages WHERE order_id = ?'),
    };
    statements.set(db, found);
  }
  return found;
}

export function rememberOrderLanguage(db: Db, orderId: string, language: PrintLanguage): void {
  prepared(db).insert.run(orderId, language);
}

/** The language recorded for an order (undefined: none yet — its checkout's answer was never given). */
export function orderLanguage(db: Db, orderId: string): PrintLanguage | undefined {
  return prepared(db).select.get(orderId)?.language;
}
