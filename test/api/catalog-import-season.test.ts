import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { createSimulator } from '../../engine/checkout/payments/simulator';
import { openDatabase } from '../../engine/store/db';
import { createSqliteStore } from '../../engine/store/sqlite-store';
import { importCatalogInSlices } from '../../engine/catalog/import-catalog';
import { createContext } from '../../engine/shared/context';
import { onPostgres, sqliteOnly, startTestEngine, type TestEngine } from '../helpers/engine';

/**
 * A season, not an arena: a catalog of thousands of small new occurrences (a cinema's year of shows, one
 * general area each). The sliced import (use-cases/import-catalog.ts) stages new occurrences inactive
 * before its last write; it must not pay a commit — a wait for the disk — per occurrence for that, or the
 * import of a season takes many times as long as the one-go import it replaced, and far longer on a
 * kiosk's slow storage. Counted in commits, not timed: performance is measured by `npm run bench`.
 */

const SHOWS = 3_000;

function season(): CatalogDocument {
  return {
    locations: [{ id: 'cinema', name: 'Cinema', currencies: ['EUR'] }],
    events: [
      {
        id: 'film',
        name: 'Film',
        locationId: 'cinema',
        kind: 'ticket',
        occurrences: Array.from({ length: SHOWS }, (_, s) => ({
          id: `show-${s}`,
          startsAt: new Date(Date.UTC(2031, 0, 1, 18) + s * 3_600_000).toISOString(),
          onSale: true,
          areas: [
            {
              id: 'hall',
              name: 'Hall',
              seating: 'general' as const,
              priceOptions: [{ id: 'adult', name: 'Adult', price: { amount: 900, currency: 'EUR' } }],
              inventoryItems: [{ id: 'seats', label: 'Seats', capacity: 120 }],
            },
          ],
        })),
      },
    ],
  };
}

/**
 * The sliced import of `doc` into a fresh database, in-process, counting the transactions it commits: every
 * transaction better-sqlite3 runs goes through `db.transaction(fn)`, so counting the calls of the functions it
 * returns counts the commits — a number, unlike a time, that a busy machine cannot move.
 */
async function slicedCommits(doc: CatalogDocument): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-season-'));
  const db = openDatabase(dataDir);
  const store = createSqliteStore(db, { groupCommit: false });
  try {
    const simulator = createSimulator(store, { baseUrl: () => 'http://127.0.0.1', now: Date.now });
    const ctx = createContext(store, { holdSeconds: 900, now: Date.now, payments: simulator.provider });
    let commits = 0;
    let depth = 0;
    const transaction = db.transaction.bind(db);
    const counted = <F extends (...args: never[]) => unknown>(run: F) =>
      ((...args: Parameters<F>) => {
        if (depth === 0) commits += 1;
        depth += 1;
        try {
          return run(...args);
        } finally {
          depth -= 1;
        }
      }) as unknown as F;
    db.transaction = ((fn: (...args: never[]) => unknown) => {
      const made = transaction(fn);
      return Object.assign(counted(made), { deferred: counted(made.deferred), immediate: counted(made.immediate), exclusive: counted(made.exclusive), default: counted(made.default) });
    }) as typeof db.transaction;
    await importCatalogInSlices(ctx, doc);
    // the staged batches commit through db.transaction, the final write through the store's own transaction
    return commits + store.commits;
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('PUT /catalog with a season of 3,000 new shows', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({ demo: false });
  });
  afterAll(() => engine.close());

  it.skipIf(onPostgres)(sqliteOnly('commits in batches of some 1,000 rows, not once per show (a wait for the disk each)', "counts the SQLite adapter's commits; PostgreSQL imports a catalog in one transaction"), async () => {
    const doc = season();
    // 3,000 occurrences, areas and items staged in batches of some 1,000 rows, and the last write: about a dozen
    const commits = await slicedCommits(doc);
    expect(commits).toBeGreaterThan(1);
    expect(commits).toBeLessThanOrEqual(20);
  }, 60_000);

  it('imports the whole season through PUT /catalog', async () => {
    const doc = season();
    const imported = await engine.request<{ data: Record<string, number> }>('PUT', '/catalog', { body: doc });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.data).toMatchObject({ occurrences: SHOWS, inventoryItems: SHOWS });

    const events = await engine.request<{ data: { occurrences: { id: string }[] }[] }>('GET', '/events');
    expect(events.body.data[0]?.occurrences).toHaveLength(SHOWS);
    const last = await engine.request<{ data: { areas: { inventoryItems: { available: number }[] }[] } }>('GET', `/occurrences/show-${SHOWS - 1}/inventory`);
    expect(last.body.data.areas[0]?.inventoryItems[0]?.available).toBe(120);
  }, 60_000);
});
