import type { ImportRow, createImportRepo } from '../import-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/import-repo.ts: what terminals imported, by Idempotency-Key and by reference, for good.
 * Runs in the caller's transaction. Two processes importing the same key or reference at once: the primary key
 * (api_key_id, idempotency_key) and the UNIQUE reference make the second `record` fail (unique_violation, 23505)
 * once the first commits, so its transaction — the order it made — rolls back; the caller answers the replay.
 */

const COLUMNS = 'api_key_id AS "apiKeyId", idempotency_key AS "idempotencyKey", reference, order_id AS "orderId"';

export function createPgImportRepo(q: Queryable): Async<ReturnType<typeof createImportRepo>> {
  return {
    async byKey(apiKeyId: string, key: string): Promise<ImportRow | undefined> {
      return (await q.query<ImportRow>(`SELECT ${COLUMNS} FROM order_imports WHERE api_key_id = $1 AND idempotency_key = $2`, [apiKeyId, key])).rows[0];
    },
    async byReference(reference: string): Promise<ImportRow | undefined> {
      return (await q.query<ImportRow>(`SELECT ${COLUMNS} FROM order_imports WHERE reference = $1`, [reference])).rows[0];
    },
    async record(row: ImportRow, now: number): Promise<undefined> {
      await q.query('INSERT INTO order_imports (api_key_id, idempotency_key, reference, order_id, created_at) VALUES ($1, $2, $3, $4, $5)',
        [row.apiKeyId, row.idempotencyKey, row.reference, row.orderId, now]);
      return undefined;
    },
  };
}
