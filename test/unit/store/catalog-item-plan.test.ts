import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogDocument } from '../../../engine/contract/catalog';
import { createSimulator } from '../../../engine/checkout/payments/simulator';
import { immediate, openDatabase, type Db } from '../../../engine/store/db';
import { createCatalogWriter } from '../../../engine/store/catalog-writer';
import { createSqliteStore } from '../../../engine/store/sqlite-store';
import { importCatalog } from '../../../engine/catalog/catalog';
import { createContext, type EngineContext } from '../../../engine/shared/context';
import { beginCheckout } from '../../../engine/checkout/checkout-begin';
import { settleCheckout } from '../../../engine/checkout/checkout-settle';
import { createCart } from '../../../engine/carts/create-cart';

/**
 * The import's last write holds the write lock and the event loop: it must write only what differs and switch
 * staged rows on (store/catalog-item-plan.ts: "re-importing a seat map of 100,000 seats with ten changed
 * labels writes ten inventory rows"). An occurrence whose row is stored but inactive — a show the catalog
 * dropped and now brings back, or the leftovers of an import cut short — is staged too, not written whole in
 * that last transaction; and switching it on brings back exactly what the document lists, held places kept.
 */

const SEATS = 3_000;
/** dropped at the end, so no other seat moves */
const LAST = `S${SEATS - 1}`;

function catalog(options: { arena: boolean; drop?: string; relabel?: string }): CatalogDocument {
  const seats = Array.from({ length: SEATS }, (_, s) => `S${s}`).filter((id) => id !== options.drop);
  return {
    locations: [{ id: 'arena', name: 'Arena', currencies: ['EUR'] }],
    events: [
      {
        id: 'show',
        name: 'Show',
        locationId: 'arena',
        kind: 'ticket',
        occurrences: [
          {
            id: 'hall-1',
            startsAt: '2031-06-01T19:00:00Z',
            onSale: true,
            areas: [{ id: 'floor', name: 'Floor', seating: 'general', priceOptions: [{ id: 'std', name: 'Standard', price: { amount: 2000, currency: 'EUR' } }], inventoryItems: [{ id: 'standing', capacity: 300 }] }],
          },
          ...(options.arena
            ? [
                {
                  id: 'arena-1',
                  startsAt: '2031-07-01T19:00:00Z',
                  onSale: true,
                  areas: [
                    {
                      id: 'block',
                      name: 'Block',
                      seating: 'assigned' as const,
                      priceOptions: [{ id: 'full', name: 'Full', price: { amount: 5000, currency: 'EUR' } }],
                      inventoryItems: seats.map((id) => ({ id, label: id === options.relabel ? `${id} (restricted view)` : id, capacity: 1 })),
                    },
                  ],
                },
              ]
            : []),
        ],
      },
    ],
  };
}

const run = <T>(steps: Generator<void, T, undefined>): T => {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
};

interface Engine {
  readonly db: Db;
  readonly ctx: EngineContext;
  /** the SQLite adapter's catalog writer, driven step by step */
  readonly writer: ReturnType<typeof createCatalogWriter>;
  /** closes the database and removes its folder */
  close(): void;
}

/** A real database in a fresh temp folder (`before` runs on it first) and the engine's context on it. */
function openEngine(prefix: string, before?: (db: Db) => void): Engine {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const db = openDatabase(dataDir);
  const close = () => {
    if (db.open) db.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    before?.(db);
    const store = createSqliteStore(db, { groupCommit: false });
    const simulator = createSimulator(store, { baseUrl: () => 'http://127.0.0.1', now: Date.now });
    return { db, writer: createCatalogWriter(db), ctx: createContext(store, { holdSeconds: 900, now: Date.now, payments: simulator.provider }), close };
  } catch (error) {
    close();
    throw error;
  }
}

/** A fresh engine for each test of the describe block it is called in, handed to `use` before the test and closed after it. */
function engineForEachTest(prefix: string, use: (engine: Engine) => void): void {
  let engine: Engine | undefined;
  beforeEach(() => {
    engine = openEngine(prefix);
    use(engine);
  });
  afterEach(() => {
    engine?.close();
    engine = undefined;
  });
}

describe('the item plan of an occurrence stored inactive', () => {
  let db: Db;
  let ctx: EngineContext;
  let writer: Engine['writer'];
  engineForEachTest('kassa-plan-', (engine) => ({ db, ctx, writer } = engine));

  const seats = () =>
    db.prepare<[string], { id: string; label: string; held: number; active: number }>('SELECT id, label, held, active FROM inventory_items WHERE occurrence_id = ? ORDER BY position').all('arena-1');
  const importInSteps = (doc: CatalogDocument) => {
    const plan = run(writer.plan(doc, true));
    immediate(db, () => writer.write(doc, plan));
    return plan;
  };

  it('a dropped show brought back: staged, its last write names only the changed seat, the dropped seat stays off, holds kept', async () => {
    await importCatalog(ctx, catalog({ arena: true }));
    await createCart(ctx, { items: [{ occurrenceId: 'arena-1', inventoryItemId: 'S7', priceOptionId: 'full', quantity: 1 }] });
    await importCatalog(ctx, catalog({ arena: false }));
    expect(await ctx.store.repos.catalog.occurrence('arena-1')).toBeUndefined();

    const plan = importInSteps(catalog({ arena: true, drop: LAST, relabel: 'S5' }));
    expect(plan.upserts.map((planned) => planned.item.id)).toEqual(['S5']);
    expect(plan.staged).toEqual(['arena-1']);

    const after = seats();
    expect(after.filter((seat) => seat.active === 1)).toHaveLength(SEATS - 1);
    expect(after.find((seat) => seat.id === LAST)?.active).toBe(0);
    expect(after.find((seat) => seat.id === 'S5')).toMatchObject({ label: 'S5 (restricted view)', active: 1 });
    expect(after.find((seat) => seat.id === 'S7')).toMatchObject({ held: 1, active: 1 });
    expect(await ctx.store.repos.catalog.items('arena-1')).toHaveLength(SEATS - 1);
  });

  it('an import cut short after staging part of a new show: the next one stages the rest, its last write names no seat', async () => {
    await importCatalog(ctx, catalog({ arena: false }));
    const doc = catalog({ arena: true });
    const steps = writer.plan(doc, true);
    // run until some seats are staged, then abandon the plan as a crash would
    while (seats().length === 0) expect(steps.next().done).toBe(false);
    expect(seats().length).toBeLessThan(SEATS);
    expect(await ctx.store.repos.catalog.occurrence('arena-1')).toBeUndefined();

    const plan = importInSteps(doc);
    expect(plan.upserts).toEqual([]);
    expect(plan.staged).toEqual(['arena-1']);
    expect(seats().filter((seat) => seat.active === 1)).toHaveLength(SEATS);
    expect(await ctx.store.repos.catalog.items('arena-1')).toHaveLength(SEATS);
  });
});

describe('the staged batches and the disk', () => {
  /** imports the arena in steps, an order-like commit between two steps; the synchronous setting seen by each staged seat's insert */
  const stagedWith = async (journal: 'wal' | 'delete') => {
    const engine = openEngine('kassa-plan-sync-', (db) => {
      if (journal === 'delete') db.pragma('journal_mode = DELETE');
    });
    const { db, ctx, writer } = engine;
    try {
      await importCatalog(ctx, catalog({ arena: false }));
      // a temporary trigger (this connection only) records the setting each inserted row was written under
      db.exec(`CREATE TEMP TABLE seen (sync INTEGER);
        CREATE TEMP TRIGGER seen_sync AFTER INSERT ON main.inventory_items BEGIN INSERT INTO seen SELECT synchronous FROM pragma_synchronous; END;`);
      const doc = catalog({ arena: true });
      const steps = writer.plan(doc, true);
      const between: number[] = [];
      let step = steps.next();
      while (!step.done) {
        // what any other request's commit between two steps would run under
        between.push(Number(db.pragma('synchronous', { simple: true })));
        step = steps.next();
      }
      immediate(db, () => writer.write(doc, step.value));
      const seen = db.prepare<[], number>('SELECT sync FROM seen').pluck().all();
      return { seen: new Set(seen), count: seen.length, between: new Set(between), after: Number(db.pragma('synchronous', { simple: true })), items: (await ctx.store.repos.catalog.items('arena-1')).length };
    } finally {
      engine.close();
    }
  };

  it('in WAL mode staged seats commit without waiting for the disk, and every commit between the steps waits (FULL)', async () => {
    expect(await stagedWith('wal')).toEqual({ seen: new Set([1]), count: SEATS, between: new Set([2]), after: 2, items: SEATS });
  });

  it('with a rollback journal (WAL refused by the file system) every staged batch waits for the disk', async () => {
    expect(await stagedWith('delete')).toEqual({ seen: new Set([2]), count: SEATS, between: new Set([2]), after: 2, items: SEATS });
  });
});

describe('sales between the steps of a re-import', () => {
  let db: Db;
  let ctx: EngineContext;
  let writer: Engine['writer'];
  engineForEachTest('kassa-plan-race-', (engine) => ({ db, ctx, writer } = engine));

  const sell = async (inventoryItemId: string) => {
    const cart = await createCart(ctx, { items: [{ occurrenceId: 'arena-1', inventoryItemId, priceOptionId: 'full', quantity: 1 }] });
    const start = await beginCheckout(
      ctx,
      { apiKeyId: 'till', apiKeyScopes: ['orders:write'], idempotencyKey: crypto.randomUUID(), body: { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'cash' } } },
      Date.now(),
    );
    if (start.kind !== 'charge') throw new Error('a fresh key replayed');
    const settled = await settleCheckout(ctx, start.attempt, { status: 'approved' }, Date.now());
    if ('error' in settled) throw settled.error;
  };
  const seat = (id: string) =>
    db.prepare<[string], { held: number; sold: number; label: string; active: number }>('SELECT held, sold, label, active FROM inventory_items WHERE occurrence_id = \'arena-1\' AND id = ?').get(id);

  it('keeps every hold and sale made while the plan was worked out; a seat sold then stays sold once', async () => {
    await importCatalog(ctx, catalog({ arena: true }));
    const doc = catalog({ arena: true, relabel: 'S5' });
    const steps = writer.plan(doc, true);
    let step = steps.next();
    let n = 0;
    while (!step.done) {
      // a sale of S5 (the seat the plan relabels) and a hold on another seat between every two steps
      if (n === 0) await sell('S5');
      await createCart(ctx, { items: [{ occurrenceId: 'arena-1', inventoryItemId: `S${100 + n}`, priceOptionId: 'full', quantity: 1 }] });
      n++;
      step = steps.next();
    }
    expect(n, 'sales between several steps').toBeGreaterThanOrEqual(2);
    const plan = step.value;
    immediate(db, () => writer.write(doc, plan));
    expect(plan.upserts.map((planned) => planned.item.id)).toEqual(['S5']);
    expect(seat('S5')).toEqual({ held: 0, sold: 1, label: 'S5 (restricted view)', active: 1 });
    for (let k = 0; k < n; k++) expect(seat(`S${100 + k}`)).toMatchObject({ held: 1, sold: 0, active: 1 });
    await expect(sell('S5')).rejects.toThrow();
    expect(seat('S5')?.sold).toBe(1);
  });
});
