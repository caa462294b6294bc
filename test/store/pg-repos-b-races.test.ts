import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { CatalogDocument } from '../../engine/contract/catalog';
import { demoCatalog } from '../../engine/catalog/demo';
import { placesLeft } from '../../engine/domain/allocations';
import { createPgAllocationRepo } from '../../engine/store/postgres/allocation-repo';
import { createPgCatalogWriter } from '../../engine/store/postgres/catalog-writer';
import { createPgHoldingRepo } from '../../engine/store/postgres/holding-repo';
import { createPgPrintJobRepo } from '../../engine/store/postgres/print-job-repo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { cleanUp, execPg, freshPg, importPg, inTransaction, pgCatalog } from './pg-b-fixtures';

/**
 * The PostgreSQL repositories under parallel transactions on a real PostgreSQL (each transaction on a client of
 * its own, as two engine processes would): grants never exceed what is left, a lapse gives places back once, a
 * print job is claimed once, a retried allocation request runs once, and two catalog imports at once end with
 * one consistent catalog.
 */

afterAll(cleanUp);

const OCC = 'brass-2027-03-12';
/** the balcony of OCC: 12 places */
const BALCONY = 'balcony';

async function demoDatabase(): Promise<pg.Pool> {
  const pool = await freshPg();
  await importPg(pool, demoCatalog());
  return pool;
}

async function allocated(pool: pg.Pool, itemId: string) {
  const item = (await pool.query<{ allocated: number }>('SELECT allocated FROM inventory_items WHERE occurrence_id = $1 AND id = $2', [OCC, itemId])).rows[0];
  const rows = (await pool.query<{ total: number }>('SELECT COALESCE(SUM(quantity), 0)::integer AS total FROM allocations WHERE occurrence_id = $1 AND inventory_item_id = $2',
    [OCC, itemId])).rows[0];
  return { item: item?.allocated, rows: rows?.total };
}

describe.skipIf(!postgresAvailable())(postgresSuite('PostgreSQL repositories under parallel transactions'), () => {
  it('ten terminals asking for 5 of 12 places at once are granted 12 in all, never more', async () => {
    const pool = await demoDatabase();
    const grants = await Promise.all(Array.from({ length: 10 }, (_, t) => inTransaction(pool, async (tx) => {
      const repo = createPgAllocationRepo(tx);
      const stock = await repo.stock(OCC, BALCONY);
      if (!stock) throw new Error('no balcony');
      await sleep(10); // widen the window between the check and the write
      const grant = Math.min(5, placesLeft(stock));
      const previous = (await repo.get(`t${t}`, OCC, BALCONY))?.quantity ?? 0;
      if (grant > 0) await repo.set({ terminalId: `t${t}`, occurrenceId: OCC, inventoryItemId: BALCONY, quantity: previous + grant, expiresAt: Date.now() + 60_000 }, previous);
      return grant;
    })));
    expect(grants.reduce((a, b) => a + b, 0)).toBe(12);
    expect(await allocated(pool, BALCONY)).toEqual({ item: 12, rows: 12 });
  });

  it('grants planned from a stale read (no lock taken) cannot overdraw: the second write is refused', async () => {
    const pool = await demoDatabase();
    const stale = await createPgAllocationRepo(pool).get('t1', OCC, BALCONY);
    expect(stale).toBeUndefined();
    const attempt = (terminalId: string) => inTransaction(pool, async (tx) => {
      await createPgAllocationRepo(tx).set({ terminalId, occurrenceId: OCC, inventoryItemId: BALCONY, quantity: 8, expiresAt: Date.now() + 60_000 }, 0);
      await sleep(50);
    });
    // two terminals, 8 each of 12: one is refused
    const results = await Promise.allSettled([attempt('t1'), attempt('t2')]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(await allocated(pool, BALCONY)).toEqual({ item: 8, rows: 8 });
    // 8 more with only 4 left: refused, nothing changed
    await expect(attempt('t3')).rejects.toThrow(/exceeds what is left/);
    // one terminal twice at once from the same stale `previous` (0): the compare-and-set refuses the second
    const twice = () => inTransaction(pool, async (tx) => {
      await createPgAllocationRepo(tx).set({ terminalId: 't4', occurrenceId: OCC, inventoryItemId: BALCONY, quantity: 2, expiresAt: Date.now() + 60_000 }, 0);
      await sleep(50);
    });
    const again = await Promise.allSettled([twice(), twice()]);
    expect(again.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok')).sort()).toEqual([
      expect.stringMatching(/changed underneath/), 'ok']);
    expect(await allocated(pool, BALCONY)).toEqual({ item: 10, rows: 10 });
  });

  it('two processes lapsing at once give lapsed places back once', async () => {
    const pool = await demoDatabase();
    await inTransaction(pool, async (tx) => {
      const repo = createPgAllocationRepo(tx);
      await repo.set({ terminalId: 't1', occurrenceId: OCC, inventoryItemId: 'standing', quantity: 5, expiresAt: 1_000 }, 0);
      await repo.set({ terminalId: 't2', occurrenceId: OCC, inventoryItemId: 'standing', quantity: 3, expiresAt: 9_000 }, 0);
      await repo.set({ terminalId: 't3', occurrenceId: OCC, inventoryItemId: 'standing', quantity: 4, expiresAt: 2_000 }, 0);
    });
    await Promise.all(Array.from({ length: 4 }, () => inTransaction(pool, async (tx) => {
      await createPgAllocationRepo(tx).lapse(5_000);
      await sleep(30);
    })));
    expect(await allocated(pool, 'standing')).toEqual({ item: 3, rows: 3 });
  });

  it('a retried allocation request on two processes at once: the second waits and reads the first answer', async () => {
    const pool = await demoDatabase();
    let firstCommitted = false;
    const first = inTransaction(pool, async (tx) => {
      const repo = createPgAllocationRepo(tx);
      expect(await repo.request('t1', 'key-1')).toBeUndefined();
      await sleep(100);
      await repo.keepRequest('t1', 'key-1', 'hash', { granted: 2 }, 1);
      firstCommitted = true;
    });
    await sleep(20);
    const second = inTransaction(pool, async (tx) => {
      const seen = await createPgAllocationRepo(tx).request('t1', 'key-1');
      return { seen, afterFirst: firstCommitted };
    });
    await first;
    expect(await second).toEqual({ seen: { bodyHash: 'hash', answer: '{"granted":2}' }, afterFirst: true });
  });

  it('a print job started by eight processes at once is claimed once', async () => {
    const pool = await demoDatabase();
    const exec = execPg(pool);
    await exec(`INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at)
      VALUES ('c1', ?, 'midnight-brass', 'stadthalle', 'ticket', 'EUR', 'ordered', 1, 2)`, [OCC]);
    await exec("INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment) VALUES ('o1', 'c1', 'confirmed', 5, 'EUR', 3900, '{}', '{}')");
    const jobs = createPgPrintJobRepo(pool);
    const seqs: number[] = [];
    for (let j = 0; j < 5; j++) {
      seqs.push((await jobs.insert({ id: `j${j}`, code: `c${j}`, orderId: 'o1', what: 'tickets', printer: 'p1', language: 'en', openDrawer: 0, createdAt: j })).seq);
    }
    // each job claimed by eight transactions at once, each holding its claim a moment before it commits
    const claims = await Promise.all(seqs.map(async (seq) => {
      const won = await Promise.all(Array.from({ length: 8 }, () => inTransaction(pool, async (tx) => {
        const claimed = await createPgPrintJobRepo(tx).start(seq, 100);
        await sleep(20);
        return claimed;
      })));
      return won.filter(Boolean).length;
    }));
    expect(claims).toEqual(seqs.map(() => 1));
    for (const seq of seqs) expect((await jobs.list({ limit: 10 })).find((job) => job.seq === seq)?.attempts).toBe(1);
  });

  it('places in hand added by ten transactions at once all count', async () => {
    const pool = await demoDatabase();
    await Promise.all(Array.from({ length: 10 }, () => inTransaction(pool, async (tx) => {
      await createPgHoldingRepo(tx).add(OCC, 'standing', 1);
      await sleep(10);
    })));
    expect((await createPgHoldingRepo(pool).get(OCC, 'standing'))?.inHand).toBe(10);
  });

  it('two catalog imports at once on two processes end with one consistent catalog: the later one, whole', async () => {
    const withSeats = demoCatalog();
    const stalls = withSeats.events[1]?.occurrences[0]?.areas[0];
    if (!stalls) throw new Error('demo catalog changed shape');
    stalls.inventoryItems.push({ id: 'Z1', label: 'Row Z, Seat 1', capacity: 1 }, { id: 'Z2', label: 'Row Z, Seat 2', capacity: 1 });
    const withoutBrass: CatalogDocument = { ...demoCatalog(), events: demoCatalog().events.slice(1) };
    const pool = await demoDatabase();
    // both planned at the same catalog version, before either writes (as importCatalogInSlices does)
    const plans = await Promise.all([withSeats, withoutBrass].map(async (doc) => {
      const steps = await createPgCatalogWriter(pool).plan(doc, true);
      const step = steps.next();
      if (!step.done) throw new Error('a PostgreSQL plan is made at once');
      return step.value;
    }));
    const order: number[] = [];
    await Promise.all([withSeats, withoutBrass].map((doc, i) => inTransaction(pool, async (tx) => {
      await createPgCatalogWriter(tx).write(doc, plans[i]);
      order.push(i);
      await sleep(100);
    })));
    const [firstDoc, lastDoc] = order.map((i) => [withSeats, withoutBrass][i]);
    if (!firstDoc || !lastDoc) throw new Error('both imports ran');
    // the same two imports one after the other
    const reference = await demoDatabase();
    await importPg(reference, firstDoc);
    await importPg(reference, lastDoc);
    const now = Date.parse('2026-06-01T00:00:00Z');
    expect(await pgCatalog(pool, now)).toEqual(await pgCatalog(reference, now));
    const versions = await Promise.all([pool, reference].map(async (db) => (await db.query<{ catalog: number }>('SELECT catalog FROM stock_clock')).rows[0]?.catalog));
    expect(versions[0]).toBe(versions[1]);
  });
});
