import type { Db } from './db';

/** What terminals imported (POST /orders/import): by Idempotency-Key and by reference, for good. Runs in the caller's transaction. */

export interface ImportRow {
  apiKeyId: string;
  idempotencyKey: string;
  reference: string;
  orderId: string;
}

const COLUMNS = 'api_key_id AS apiKeyId, idempotency_key AS idempotencyKey, reference, order_id AS orderId';

export function createImportRepo(db: Db) {
  const byKey = db.prepare<[string, string], ImportRow>(`SELECT ${COLUMNS} FROM order_imports WHERE api_key_id = ? AND idempotency_key = ?`);
  const byReference = db.prepare<[string], ImportRow>(`SELECT ${COLUMNS} FROM order_imports WHERE reference = ?`);
  const insert = db.prepare<[string, string, string, string, number]>(
    'INSERT INTO order_imports (api_key_id, idempotency_key, reference, order_id, created_at) VALUES (?, ?, ?, ?, ?)');
  return {
    byKey: (apiKeyId: string, key: string) => byKey.get(apiKeyId, key),
    byReference: (reference: string) => byReference.get(reference),
    record: (row: ImportRow, now: number) => void insert.run(row.apiKeyId, row.idempotencyKey, row.reference, row.orderId, now),
  };
}
