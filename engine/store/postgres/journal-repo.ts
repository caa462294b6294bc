import type { JournalHead, JournalRepo, JournalRow } from '../journal-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/journal-repo.ts: the journal every engine process sharing the database appends to. An
 * appender holds journal_head's row lock (Locks.journalHead, SELECT … FOR UPDATE) from reading the head until its
 * commit, so two processes never take one seq; `append` moves the head conditionally besides (seq = the new one − 1)
 * and fails the transaction when it does not follow.
 */

const COLUMNS = 'seq, at, kind, ref, amount, data, prev_hash AS "prevHash", hash';

export function createPgJournalRepo(q: Queryable): Async<JournalRepo> {
  const rows = async (sql: string, values: unknown[]) => (await q.query<JournalRow>(sql, values)).rows;
  return {
    async append(row) {
      // one round trip: the head moves only when it is the row's predecessor, and the row goes in only then
      const { rowCount } = await q.query(`WITH moved AS (UPDATE journal_head SET seq = $1, hash = $8 WHERE id = 1 AND seq = $1 - 1 RETURNING seq)
        INSERT INTO journal (seq, at, kind, ref, amount, data, prev_hash, hash) SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM moved`,
      [row.seq, row.at, row.kind, row.ref, row.amount, row.data, row.prevHash, row.hash]);
      if (rowCount !== 1) throw new Error(`journal entry ${row.seq} does not follow the head`);
    },
    head: async () => (await q.query<JournalHead>('SELECT seq, hash FROM journal_head WHERE id = 1')).rows[0],
    list: (after, limit) => rows(`SELECT ${COLUMNS} FROM journal WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, limit]),
    saleOf: async (orderId) => (await rows(`SELECT ${COLUMNS} FROM journal WHERE kind = 'order' AND ref = $1 ORDER BY seq LIMIT 1`, [orderId]))[0],
    // the expression of index journal_by_shift, written the same way so that the index is used
    ofShift: (shiftId, after, limit) =>
      rows(`SELECT ${COLUMNS} FROM journal WHERE ((data::jsonb) ->> 'shiftId') = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [shiftId, after, limit]),
  };
}
