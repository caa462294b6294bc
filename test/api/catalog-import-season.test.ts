import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { createSimulator } from '../../engine/payments/simulator';
import { openDatabase } from '../../engine/store/db';
import { importCatalog } from '../../engine/use-cases/catalog';
import { createContext } from '../../engine/use-cases/context';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/**
 * A season, not an arena: a catalog of thousands of small new occurrences (a cinema's year of shows, one
 * general area each). The sliced import (use-cases/import-catalog.ts) stages new occurrences inactive
 * before its last write; it must not pay a commit — a wait for the disk — per occurrence for that, or the
 * import of a season takes many times as long as the one-go import it replaced, and far longer on a
 * kiosk's slow storage. Measured against the one-go import of the same document on the same disk.
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

/** the one-go import (as `--catalog FILE` does it) of `doc` into a fresh database, in ms */
function oneGoMs(doc: CatalogDocument): number {
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-season-'));
  const db = openDatabase(dataDir);
  try {
    const simulator = createSimulator(db, { baseUrl: () => 'http://127.0.0.1', now: Date.now });
    const ctx = createContext(db, { holdSeconds: 900, now: Date.now, payments: simulator.provider });
    const started = performance.now();
    importCatalog(ctx, doc);
    return performance.now() - started;
  } finally {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('PUT /catalog with a season of 3,000 new shows', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({ demo: false });
  });
  afterAll(() => engine.close());

  it('takes about as long as the one-go import, not a commit per show', async () => {
    const doc = season();
    const oneGo = oneGoMs(doc);
    const started = performance.now();
    const imported = await engine.request<{ data: Record<string, number> }>('PUT', '/catalog', { body: doc });
    const sliced = performance.now() - started;
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.data).toMatchObject({ occurrences: SHOWS, inventoryItems: SHOWS });
    // the slices, the turns of the event loop and the HTTP round trip cost something; a wait for the disk per show costs far more
    expect(sliced, `sliced ${Math.round(sliced)} ms, one go ${Math.round(oneGo)} ms`).toBeLessThan(3 * oneGo + 500);

    const events = await engine.request<{ data: { occurrences: { id: string }[] }[] }>('GET', '/events');
    expect(events.body.data[0]?.occurrences).toHaveLength(SHOWS);
    const last = await engine.request<{ data: { areas: { inventoryItems: { available: number }[] }[] } }>('GET', `/occurrences/show-${SHOWS - 1}/inventory`);
    expect(last.body.data.areas[0]?.inventoryItems[0]?.available).toBe(120);
  }, 60_000);
});
