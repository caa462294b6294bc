import { WAITS_FOR_ORDER, type JournalSyncRepo, type OutgoingJournalRow } from '../journal-sync-repo';
import { JOURNAL_COLUMNS } from '../terminal-journal-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/** PostgreSQL twin of store/journal-sync-repo.ts: a terminal's journal on its way to the hub. */

const JOURNAL = JOURNAL_COLUMNS.replace('prev_hash AS prevHash', 'prev_hash AS "prevHash"');

export function createPgJournalSyncRepo(q: Queryable): Async<JournalSyncRepo> {
  return {
    async outgoing(afterSeq: number, limit: number): Promise<OutgoingJournalRow[]> {
      const { rows } = await q.query<OutgoingJournalRow>(
        `SELECT ${JOURNAL}, ${WAITS_FOR_ORDER} AS "waitsForOrder" FROM journal WHERE seq > $1 ORDER BY seq LIMIT $2`, [afterSeq, limit]);
      return rows;
    },
    async after(afterSeq: number): Promise<{ n: number; last: number | null }> {
      const { rows } = await q.query<{ n: number; last: number | null }>('SELECT COUNT(*)::int AS n, MAX(seq) AS last FROM journal WHERE seq > $1', [afterSeq]);
      return rows[0] ?? { n: 0, last: null };
    },
  };
}
