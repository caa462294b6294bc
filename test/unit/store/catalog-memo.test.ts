import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../../engine/catalog/demo';
import { createCatalogRepo } from '../../../engine/store/catalog-repo';
import { immediate, openDatabase, type Db } from '../../../engine/store/db';
import { createCatalogWriter } from '../../../engine/store/catalog-writer';

/**
 * Catalog facts kept per catalog version (engine/store/catalog-memo.ts), on a real SQLite file: a write by
 * the engine's catalog writer is seen at once, even within the same turn of the event loop; a change by
 * another connection is seen once it moves stock_clock.catalog; and facts are read once per version.
 */

const OCCURRENCE = 'brass-2027-03-12';

describe('catalog facts kept per catalog version', () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kassa-memo-'));
    db = openDatabase(dir);
    immediate(db, () => createCatalogWriter(db).write(demoCatalog()));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a catalog write is seen in the same turn: prices, sale state, currencies and extras', () => {
    const repo = createCatalogRepo(db);
    const price = (id: string) => repo.priceOptions(OCCURRENCE, [id]).get(id)?.price;
    const before = price('standing-adult');
    expect(before).toBeGreaterThan(0);
    expect(repo.occurrences([OCCURRENCE]).get(OCCURRENCE)?.onSale).toBe(true);

    const doc = demoCatalog();
    const event = doc.events.find((e) => e.occurrences.some((o) => o.id === OCCURRENCE));
    const occurrence = event?.occurrences.find((o) => o.id === OCCURRENCE);
    const option = occurrence?.areas.flatMap((area) => area.priceOptions).find((o) => o.id === 'standing-adult');
    if (!event || !occurrence || !option) throw new Error('demo catalog changed');
    option.price = { ...option.price, amount: option.price.amount + 100 };
    occurrence.onSale = false;
    event.extras = [];
    const location = doc.locations.find((l) => l.id === event.locationId);
    if (!location) throw new Error('demo catalog changed');
    location.currencies = [location.currencies[0] ?? 'EUR'];
    immediate(db, () => createCatalogWriter(db).write(doc));

    // no await in between: the same turn of the event loop
    expect(price('standing-adult')).toBe((before ?? 0) + 100);
    expect(repo.occurrences([OCCURRENCE]).get(OCCURRENCE)?.onSale).toBe(false);
    expect(repo.extras(event.id)).toEqual([]);
    expect(repo.location(event.locationId)?.currencies).toEqual(location.currencies);
  });

  it('a change by another connection is seen once it moves the catalog version, in a later turn', async () => {
    const repo = createCatalogRepo(db);
    const name = () => repo.occurrences([OCCURRENCE]).get(OCCURRENCE)?.eventName;
    const first = name();
    const other = new Database(join(dir, 'kassa.sqlite'));
    try {
      other.prepare("UPDATE events SET name = 'Renamed' WHERE id = (SELECT event_id FROM occurrences WHERE id = ?)").run(OCCURRENCE);
      await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
      // kept: the version did not move
      expect(name()).toBe(first);
      other.prepare('UPDATE stock_clock SET catalog = catalog + 1 WHERE id = 1').run();
      await new Promise((resolve) => setImmediate(resolve));
      expect(name()).toBe('Renamed');
    } finally {
      other.close();
    }
  });

  it('facts are read from SQLite once per version; ids that do not exist are not kept', async () => {
    const repo = createCatalogRepo(db);
    let reads = 0;
    const traced = new Database(join(dir, 'kassa.sqlite'), { verbose: (sql) => void (typeof sql === 'string' && sql.includes('FROM price_options') && reads++) });
    try {
      const tracedRepo = createCatalogRepo(traced);
      for (let i = 0; i < 5; i++) {
        tracedRepo.priceOptions(OCCURRENCE, ['standing-adult']);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(reads).toBe(1);
      for (let i = 0; i < 3; i++) expect(tracedRepo.priceOptions(OCCURRENCE, ['no-such-option']).size).toBe(0);
      expect(reads).toBe(4);
    } finally {
      traced.close();
    }
    expect(repo.priceOptions(OCCURRENCE, ['standing-adult']).size).toBe(1);
  });

  it('kept facts are frozen: a caller cannot change them for the next request', () => {
    const repo = createCatalogRepo(db);
    const facts = repo.occurrences([OCCURRENCE]).get(OCCURRENCE);
    expect(Object.isFrozen(facts)).toBe(true);
    const extras = repo.extras(facts?.eventId ?? '');
    expect(Object.isFrozen(extras)).toBe(true);
  });
});
