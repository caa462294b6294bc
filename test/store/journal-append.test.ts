import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH, verifyChain } from '../../engine/domain/journal';
import { appendJournal } from '../../engine/journal/append';
import { openStore } from '../../engine/store/open';
import type { Store } from '../../engine/store/port';
import { createTestDatabase, postgresAvailable } from '../helpers/postgres';

/**
 * appendJournal (engine/journal/append.ts) on both adapters: the entry follows the head inside the caller's
 * transaction, `data.shiftId` is the open shift (none yet: null) or the one the caller names, and an entry rolls
 * back with its transaction.
 */

const dirs: string[] = [];
const stores: Store[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function open(database: string | undefined): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-journal-append-'));
  dirs.push(dir);
  const store = await openStore(database, { dataDir: dir, masterKey: randomBytes(32) });
  stores.push(store);
  return store;
}

const databases: [string, () => Promise<string | undefined>][] = [['SQLite', () => Promise.resolve(undefined)]];
if (postgresAvailable()) databases.push(['PostgreSQL', () => createTestDatabase({ migrated: true })]);

describe.each(databases)('appendJournal on %s', (_name, database) => {
  it('chains entries, sets data.shiftId, and rolls back with its transaction', async () => {
    const store = await open(await database());
    const at = Date.UTC(2026, 10, 26, 12, 0, 0, 5);
    const first = await store.transaction((tx) => appendJournal(tx, { at, kind: 'order', ref: 'ord_1', amount: { amount: 500, currency: 'EUR' }, data: { orderId: 'ord_1' } }));
    expect(first).toMatchObject({ seq: 1, at: '2026-11-26T12:00:00.005Z', kind: 'order', ref: 'ord_1', amount: { amount: 500, currency: 'EUR' }, data: { orderId: 'ord_1', shiftId: null }, prevHash: GENESIS_HASH });
    const second = await store.transaction((tx) => appendJournal(tx, { at, kind: 'shiftOpened', ref: 'shf_1', data: { number: 1 }, shiftId: 'shf_1' }));
    expect(second).toMatchObject({ seq: 2, data: { number: 1, shiftId: 'shf_1' }, prevHash: first.hash });
    expect(second.amount).toBeUndefined();
    await expect(store.transaction(async (tx) => {
      await appendJournal(tx, { at, kind: 'payIn', ref: 'mov_1', amount: { amount: 1, currency: 'EUR' }, data: { reason: 'x' } });
      throw new Error('the thing it records failed');
    })).rejects.toThrow('the thing it records failed');
    expect(await store.repos.journal.head()).toEqual({ seq: 2, hash: second.hash });
    expect(await store.repos.journal.ofShift('shf_1', 0, 10)).toHaveLength(1);
    expect(verifyChain(await store.repos.journal.list(0, 10), await store.repos.journal.head())).toEqual({ ok: true, entries: 2, head: second.hash });
  });
});
