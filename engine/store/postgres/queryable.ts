import type { QueryResultRow } from 'pg';

/**
 * What a PostgreSQL repository runs its statements on: the pool (one statement, autocommit) or the client of
 * one transaction. Both `pg.Pool` and `pg.PoolClient` fit.
 */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}
