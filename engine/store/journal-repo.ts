import type { Db } from './db';
import type { JournalHead, JournalRow } from '../domain/journal';

export type { JournalHead, JournalRow } from '../domain/journal';

/**
 * The journal (contract §14, migration 0021): table `journal`, append-only, and its head `journal_head`. Every
 * method runs in the caller's transaction; `append` is called by engine/journal/append.ts alone, under the head
 * lock (Locks.journalHead), with the row domain/journal.ts nextRow made from the head read in that transaction.
 */

const COLUMNS = 'seq, at, kind, ref, amount, data, prev_hash AS prevHash, hash';

export function createJournalRepo(db: Db) {
  const insert = db.prepare<[JournalRow]>('INSERT INTO journal (seq, at, kind, ref, amount, data, prev_hash, hash) VALUES (@seq, @at, @kind, @ref, @amount, @data, @prevHash, @hash)');
  const moveHead = db.prepare<[{ seq: number; hash: string }]>('UPDATE journal_head SET seq = @seq, hash = @hash WHERE id = 1 AND seq = @seq - 1');
  const head = db.prepare<[], JournalHead>('SELECT seq, hash FROM journal_head WHERE id = 1');
  const list = db.prepare<[number, number], JournalRow>(`SELECT ${COLUMNS} FROM journal WHERE seq > ? ORDER BY seq LIMIT ?`);
  // the expression of index journal_by_shift, written the same way so that the index is used
  const saleOf = db.prepare<[string], JournalRow>(`SELECT ${COLUMNS} FROM journal WHERE kind = 'order' AND ref = ? ORDER BY seq LIMIT 1`);
  const ofShift = db.prepare<[string, number, number], JournalRow>(
    `SELECT ${COLUMNS} FROM journal WHERE json_extract(data, '$.shiftId') = ? AND seq > ? ORDER BY seq LIMIT ?`);

  return {
    /**
     * Stores the next entry and moves the head to it, both in the caller's transaction. Throws when the row does
     * not follow the head (an appender without the head lock: nothing is written then, the transaction fails).
     */
    append(row: JournalRow): void {
      if (moveHead.run({ seq: row.seq, hash: row.hash }).changes !== 1) throw new Error(`journal entry ${row.seq} does not follow the head`);
      insert.run(row);
    },
    /** the last entry's seq and hash (seq 0 and 64 zeros while the journal is empty); undefined if the row is gone */
    head: (): JournalHead | undefined => head.get(),
    /** up to `limit` entries after seq `after`, in seq order (a page of the API's list, and of verification) */
    list: (after: number, limit: number): JournalRow[] => list.all(after, limit),
    /**
     * the `order` entry of a sale (ref = its order id), or undefined; by a scan of the table (no index on ref): a
     * cancellation in another currency than the base reads its sale's base total here (checkout/journal-entries.ts)
     */
    saleOf: (orderId: string): JournalRow | undefined => saleOf.get(orderId),
    /** up to `limit` entries whose data.shiftId is `shiftId`, after seq `after`, in seq order (a shift's report, its export) */
    ofShift: (shiftId: string, after: number, limit: number): JournalRow[] => ofShift.all(shiftId, after, limit),
  };
}

export type JournalRepo = ReturnType<typeof createJournalRepo>;
