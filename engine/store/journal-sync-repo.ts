import type { Db } from './db';
import { JOURNAL_COLUMNS, type StoredJournalRow } from './terminal-journal-repo';

/**
 * A terminal's journal on its way to the hub (contract §14): the entries after the last one the hub confirmed, each
 * told whether it must still wait — an `order` or `cancellation` entry waits while its order has an outbox entry
 * not yet delivered, so the hub never holds an entry ahead of the order it records. Runs in the caller's transaction.
 */

export interface OutgoingJournalRow extends StoredJournalRow {
  /** 1: its order's own delivery is still pending in the outbox */
  waitsForOrder: number;
}

/** The outbox still has to deliver the order this entry records (SQL shared by both adapters: it names no parameter). */
export const WAITS_FOR_ORDER = `CASE WHEN kind IN ('order', 'cancellation') AND EXISTS (
    SELECT 1 FROM outbox o WHERE o.order_id = journal.ref AND o.state = 'pending' AND o.kind IN ('order', 'cancel')) THEN 1 ELSE 0 END`;

export function createJournalSyncRepo(db: Db) {
  const outgoing = db.prepare<[number, number], OutgoingJournalRow>(
    `SELECT ${JOURNAL_COLUMNS}, ${WAITS_FOR_ORDER} AS waitsForOrder FROM journal WHERE seq > ? ORDER BY seq LIMIT ?`);
  const after = db.prepare<[number], { n: number; last: number | null }>('SELECT COUNT(*) AS n, MAX(seq) AS last FROM journal WHERE seq > ?');
  return {
    /** up to `limit` entries after `afterSeq`, in seq order, each with whether it must still wait for its order */
    outgoing: (afterSeq: number, limit: number) => outgoing.all(afterSeq, limit),
    /** how many entries there are after `afterSeq`, and the last seq (null: none) */
    after: (afterSeq: number) => after.get(afterSeq) ?? { n: 0, last: null },
  };
}

export type JournalSyncRepo = ReturnType<typeof createJournalSyncRepo>;
