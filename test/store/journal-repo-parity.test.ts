import { afterAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH, nextRow, verifyChain, type JournalHead } from '../../engine/domain/journal';
import { createJournalRepo, type JournalRepo } from '../../engine/store/journal-repo';
import { createPgJournalRepo } from '../../engine/store/postgres/journal-repo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { cleanUp, freshPg, freshSqlite, inTransaction, type Either } from './pg-b-fixtures';

/**
 * The journal's repository (issue #25, migration 0021) on both databases: appends follow the head, the head moves
 * with them, pages and a shift's entries (data.shiftId, through the expression index) answer the same.
 */

afterAll(cleanUp);

async function exercise(r: Either<JournalRepo>) {
  const log: unknown[] = [];
  log.push(await r.head());
  let head: JournalHead = { seq: 0, hash: GENESIS_HASH };
  for (let i = 0; i < 5; i++) {
    const row = nextRow(head, { at: `2026-01-01T00:00:0${i}.000Z`, kind: 'order', ref: `ord_${i}`, ...(i !== 2 && { amount: { amount: i * 100, currency: 'EUR' } }), data: { shiftId: i % 2 ? 'shf_a' : null, i } });
    await r.append(row);
    head = { seq: row.seq, hash: row.hash };
  }
  log.push(await r.head(), await r.list(0, 2), await r.list(2, 100), await r.list(5, 10));
  log.push(await r.ofShift('shf_a', 0, 10), await r.ofShift('shf_a', 2, 10), await r.ofShift('nope', 0, 10));
  // a row that does not follow the head is refused and changes nothing
  const stale = nextRow({ seq: 2, hash: GENESIS_HASH }, { at: '2026-01-01T00:00:09.000Z', kind: 'order', ref: 'late', data: {} });
  log.push(await Promise.resolve().then(() => r.append(stale)).then(() => 'appended', (error: unknown) => (error instanceof Error ? error.message : 'refused')));
  log.push(await r.head());
  return log;
}

describe('journal repository, SQLite', () => {
  it('appends, moves the head, lists pages and a shift\'s entries', async () => {
    const db = freshSqlite();
    const r = createJournalRepo(db);
    const log = await exercise(r);
    expect(log[0]).toEqual({ seq: 0, hash: GENESIS_HASH });
    expect(log[1]).toMatchObject({ seq: 5 });
    expect((log[2] as unknown[]).length).toBe(2);
    expect((log[3] as { seq: number }[]).map((row) => row.seq)).toEqual([3, 4, 5]);
    expect((log[5] as { seq: number }[]).map((row) => row.seq)).toEqual([2, 4]);
    expect((log[6] as { seq: number }[]).map((row) => row.seq)).toEqual([4]);
    expect(log[8]).toBe('journal entry 3 does not follow the head');
    expect(verifyChain(r.list(0, 100), r.head())).toMatchObject({ ok: true, entries: 5 });
    // the shift lookup uses the expression index
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT seq FROM journal WHERE json_extract(data, '$.shiftId') = ? AND seq > ? ORDER BY seq LIMIT ?").all('shf_a', 0, 10);
    expect(JSON.stringify(plan)).toContain('journal_by_shift');
  });
});

describe.skipIf(!postgresAvailable())(postgresSuite('journal repository, parity with SQLite'), () => {
  it('answers as SQLite does, and the shift lookup can use the index', async () => {
    const sqliteLog = await exercise(createJournalRepo(freshSqlite()));
    const pool = await freshPg();
    const pgLog = await exercise(createPgJournalRepo(pool));
    expect(pgLog).toEqual(sqliteLog);
    await inTransaction(pool, async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>("EXPLAIN SELECT seq FROM journal WHERE ((data::jsonb) ->> 'shiftId') = $1 AND seq > $2 ORDER BY seq LIMIT $3", ['shf_a', 0, 10]);
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('journal_by_shift');
    });
  });
});
