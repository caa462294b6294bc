import {
  JOURNAL_COLUMNS,
  type JournalHeadRow,
  type ShiftPosition,
  type StoredJournalRow,
  type TerminalJournalRepo,
  type TerminalShiftClosing,
  type TerminalShiftOpening,
  type TerminalShiftRow,
} from '../terminal-journal-repo';
import type { Async } from '../port-types';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/terminal-journal-repo.ts: a hub's copy of its terminals' journals and their shifts. Runs in
 * the caller's transaction; the caller holds the terminal's named lock while it appends (one writer per terminal chain).
 */

const JOURNAL = JOURNAL_COLUMNS.replace('prev_hash AS prevHash', 'prev_hash AS "prevHash"');
const SHIFTS = `key_id AS "keyId", id, number, status, opened_at AS "openedAt", opening_float AS "openingFloat", currency, staff,
  closed_at AS "closedAt", z_number AS "zNumber", expected, counted, difference, note, report`;
const NEWEST = 'ORDER BY opened_at DESC, key_id DESC, id DESC';

export function createPgTerminalJournalRepo(q: Queryable): Async<TerminalJournalRepo> {
  return {
    async head(keyId: string): Promise<JournalHeadRow | undefined> {
      const { rows } = await q.query<JournalHeadRow>('SELECT key_id AS "keyId", seq, hash, received_at AS "receivedAt" FROM terminal_journal_heads WHERE key_id = $1', [keyId]);
      return rows[0];
    },
    async hashes(keyId: string, from: number, to: number): Promise<{ seq: number; hash: string }[]> {
      const { rows } = await q.query<{ seq: number; hash: string }>('SELECT seq, hash FROM terminal_journal WHERE key_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq', [keyId, from, to]);
      return rows;
    },
    async append(keyId: string, rows: readonly StoredJournalRow[], now: number): Promise<undefined> {
      const last = rows.at(-1);
      if (!last) return undefined;
      // one statement for the batch: arrays unnested in step
      await q.query(
        `INSERT INTO terminal_journal (key_id, seq, at, kind, ref, amount, data, prev_hash, hash)
         SELECT $1::text, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])`,
        [
          keyId,
          rows.map((row) => row.seq),
          rows.map((row) => row.at),
          rows.map((row) => row.kind),
          rows.map((row) => row.ref),
          rows.map((row) => row.amount),
          rows.map((row) => row.data),
          rows.map((row) => row.prevHash),
          rows.map((row) => row.hash),
        ],
      );
      await q.query(
        `INSERT INTO terminal_journal_heads (key_id, seq, hash, received_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, received_at = excluded.received_at`,
        [keyId, last.seq, last.hash, now],
      );
      return undefined;
    },
    async entries(keyId: string, afterSeq: number, limit: number): Promise<StoredJournalRow[]> {
      const { rows } = await q.query<StoredJournalRow>(`SELECT ${JOURNAL} FROM terminal_journal WHERE key_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [keyId, afterSeq, limit]);
      return rows;
    },
    async openShift(keyId: string, shift: TerminalShiftOpening): Promise<undefined> {
      await q.query(
        `INSERT INTO terminal_shifts (key_id, id, number, status, opened_at, opening_float, currency, staff) VALUES ($1, $2, $3, 'open', $4, $5, $6, $7)
         ON CONFLICT (key_id, id) DO NOTHING`,
        [keyId, shift.id, shift.number, shift.openedAt, shift.openingFloat, shift.currency, shift.staff],
      );
      return undefined;
    },
    async closeShift(keyId: string, shift: TerminalShiftClosing): Promise<undefined> {
      await q.query(
        `UPDATE terminal_shifts SET status = 'closed', closed_at = $1, z_number = $2, expected = $3, counted = $4, difference = $5, note = $6, report = $7
         WHERE key_id = $8 AND id = $9`,
        [shift.closedAt, shift.zNumber, shift.expected, shift.counted, shift.difference, shift.note, shift.report, keyId, shift.id],
      );
      return undefined;
    },
    async shifts(keyId: string | null, limit: number, from?: ShiftPosition): Promise<TerminalShiftRow[]> {
      const where: string[] = [];
      const values: unknown[] = [];
      if (keyId !== null) {
        values.push(keyId);
        where.push(`key_id = $${values.length}`);
      }
      if (from) {
        values.push(from.openedAt, from.keyId, from.id);
        const [a, k, i] = [values.length - 2, values.length - 1, values.length];
        where.push(`(opened_at, key_id, id) < ($${a}, $${k}, $${i})`);
      }
      values.push(limit);
      const { rows } = await q.query<TerminalShiftRow>(
        `SELECT ${SHIFTS} FROM terminal_shifts ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ${NEWEST} LIMIT $${values.length}`,
        values,
      );
      return rows;
    },
  };
}
