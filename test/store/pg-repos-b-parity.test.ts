import { afterAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { demoCatalog } from '../../engine/catalog/demo';
import { createAllocationRepo, type AllocationRepo } from '../../engine/store/allocation-repo';
import type { Db } from '../../engine/store/db';
import { createHoldingRepo, type HoldingRepo } from '../../engine/store/holding-repo';
import { createKeyRepo, type KeyRepo } from '../../engine/store/key-repo';
import { createPrintJobRepo, type PrintJobRepo } from '../../engine/store/print-job-repo';
import { createStaffPinRepo } from '../../engine/store/staff-pin-repo';
import { createPgAllocationRepo } from '../../engine/store/postgres/allocation-repo';
import { createPgHoldingRepo } from '../../engine/store/postgres/holding-repo';
import { createPgKeyRepo } from '../../engine/store/postgres/key-repo';
import { createPgPrintJobRepo } from '../../engine/store/postgres/print-job-repo';
import { createPgStaffPinRepo } from '../../engine/store/postgres/staff-pin-repo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { cleanUp, execPg, execSqlite, freshPg, freshSqlite, importPg, importSqlite, type Either, type Exec } from './pg-b-fixtures';

/**
 * Parity of the PostgreSQL allocation, holding, key, staff-PIN and print-job repositories with SQLite's: the same
 * sequence of calls on a migrated SQLite file and on a real PostgreSQL, every answer equal.
 */

afterAll(cleanUp);

const OCC = 'brass-2027-03-12';

/** both databases with the demo catalog, a released cart c1 sold as order o1 and a held cart c3 */
async function both(): Promise<{ db: Db; pool: pg.Pool }> {
  const db = freshSqlite();
  const pool = await freshPg();
  importSqlite(db, demoCatalog());
  await importPg(pool, demoCatalog());
  for (const exec of [execSqlite(db), execPg(pool)]) await seed(exec);
  return { db, pool };
}

async function seed(exec: Exec): Promise<void> {
  const cart = `INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at) VALUES (?, ?, 'midnight-brass', 'stadthalle', 'ticket', 'EUR', ?, 1, 2)`;
  await exec(cart, ['c1', OCC, 'released']);
  await exec(cart, ['c3', OCC, 'held']);
  await exec("INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment) VALUES ('o1', 'c1', 'confirmed', 5, 'EUR', 3900, '{}', '{}')");
}

const outcome = (work: () => unknown) => Promise.resolve().then(work).then((value) => ({ value }), (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));

async function allocations(r: Either<AllocationRepo>) {
  const log: unknown[] = [];
  const row = (terminalId: string, inventoryItemId: string, quantity: number, expiresAt: number) => ({ terminalId, occurrenceId: OCC, inventoryItemId, quantity, expiresAt });
  log.push(await r.stock(OCC, 'standing'), await r.stock(OCC, 'nope'), await r.get('t1', OCC, 'standing'));
  await r.set(row('t1', 'standing', 5, 1000), 0);
  await r.set(row('t2', 'standing', 3, 2000), 0);
  await r.set(row('t1', 'balcony', 4, 1000), 0);
  log.push(await r.stock(OCC, 'standing'), await r.ofTerminal('t1'), await r.ofTerminal('t2'));
  await r.set(row('t1', 'standing', 2, 1000), 5);
  await r.consume('t1', OCC, 'standing', 1);
  await r.consume('t1', OCC, 'standing', 0);
  log.push(await r.get('t1', OCC, 'standing'), await r.stock(OCC, 'standing'), await outcome(() => r.consume('t1', OCC, 'standing', 5)));
  await r.renew('t1', 1500, 900);
  await r.lapse(1200);
  log.push(await r.ofTerminal('t1'), await r.stock(OCC, 'balcony'));
  await r.lapse(1600);
  log.push(await r.ofTerminal('t1'), await r.ofTerminal('t2'), await r.stock(OCC, 'standing'), await r.stock(OCC, 'balcony'), await r.get('t1', OCC, 'balcony'));
  log.push(await r.request('t1', 'k1'));
  await r.keepRequest('t1', 'k1', 'hash', { granted: [1, 2], note: 'é' }, 100);
  log.push(await r.request('t1', 'k1'), await r.request('t2', 'k1'));
  await r.purgeRequests(50);
  log.push(await r.request('t1', 'k1'));
  await r.purgeRequests(100);
  log.push(await r.request('t1', 'k1'));
  return log;
}

async function holdings(r: Either<HoldingRepo>, exec: Exec) {
  const log: unknown[] = [];
  log.push(await r.get(OCC, 'standing'), await r.all(), await r.syncProgress(), await r.heldLocally(OCC, 'standing'));
  await r.add(OCC, 'standing', 5);
  await r.add(OCC, 'balcony', -3);
  await r.add('gone-show', 'seat', 2);
  log.push(await r.all());
  await r.add(OCC, 'standing', -10);
  await r.set(OCC, 'balcony', 7);
  await r.venue(OCC, 'standing', 30, 1000);
  await r.venue('brass-2027-03-13', 'balcony', 4, 1100);
  await r.renew(5000);
  await exec("UPDATE inventory_items SET held = 2 WHERE occurrence_id = ? AND id = 'standing'", [OCC]);
  log.push(await r.all(), await r.ofOccurrence(OCC), await r.get(OCC, 'standing'), await r.heldLocally(OCC, 'standing'), await r.heldLocally(OCC, 'nope'));
  const outbox = "INSERT INTO outbox (kind, order_id, state, idempotency_key, created_at) VALUES (?, 'o1', ?, ?, 1)";
  await exec(outbox, ['order', 'pending', 'i1']);
  await exec(outbox, ['cancel', 'pending', 'i2']);
  await exec(outbox, ['order', 'delivered', 'i3']);
  log.push(await r.syncProgress());
  await r.linkUpstreamCart('c1', 'u1', 10);
  await r.linkUpstreamCart('c2', null, 20);
  await r.linkUpstreamCart('c3', 'u3', 30);
  log.push(await r.staleUpstreamCarts(10));
  await r.linkUpstreamCart('c1', 'u1b', 40);
  log.push(await r.upstreamCartOf('c1'), await r.upstreamCartOf('c2'), await r.upstreamCartOf('nope'), await r.staleUpstreamCarts(10));
  await r.forgetUpstreamCart('c1');
  log.push(await r.upstreamCartOf('c1'), await r.staleUpstreamCarts(10));
  return log;
}

async function keys(r: Either<KeyRepo>) {
  const log: unknown[] = [];
  const a = await r.create('till', ['carts:write', 'sync']);
  const b = await r.create('web', ['orders:checkout'], { owner: 'shop' });
  const c = await r.create('old', ['admin'], { expiresAt: 1000 });
  const d = await r.create('till', ['admin']);
  const symbol = new Map([[a.id, 'a'], [b.id, 'b'], [c.id, 'c'], [d.id, 'd']]);
  const named = (id: string) => symbol.get(id) ?? id;
  const key = (found: { id: string; owner: string; scopes: string[] } | undefined) => found && { ...found, id: named(found.id), owner: named(found.owner) };
  log.push(key(await r.authenticate(a.key)), key(await r.authenticate(b.key)), key(await r.authenticate(c.key, 999)), key(await r.authenticate(c.key, 1000)));
  log.push(await r.authenticate('kassa_nope'), await r.revoke(d.id), await r.revoke(d.id), await r.revoke('key_nope'), key(await r.authenticate(d.key)));
  const replaced = await r.replace(b.id);
  if (replaced) symbol.set(replaced.id, 'b2');
  log.push(replaced && { ...replaced, id: named(replaced.id), key: typeof replaced.key, owner: named(replaced.owner) }, await r.replace('key_nope'));
  log.push(key(await r.authenticate(b.key)), key(await r.authenticate(replaced?.key ?? '')));
  log.push(await r.revokeNamed('till'), await r.revokeNamed('till'), key(await r.authenticate(a.key)));
  const list = await r.list();
  log.push(list.map((info) => ({ ...info, id: named(info.id), owner: named(info.owner), createdAt: typeof info.createdAt, revokedAt: info.revokedAt === null })).sort(
    (x, y) => (x.id < y.id ? -1 : 1)));
  return log;
}

async function printJobs(r: Either<PrintJobRepo>, exec: Exec) {
  const log: unknown[] = [];
  await exec("INSERT INTO order_languages (order_id, language) VALUES ('o1', 'de')");
  const job = (id: string, printer: string, openDrawer: 0 | 1, createdAt: number) =>
    ({ id, code: `code-${id}`, orderId: 'o1', what: 'tickets' as const, printer, language: 'de' as const, openDrawer, createdAt });
  log.push(await r.head('p1'), await r.waiting('p1'), await r.drawerOpened('o1'), await r.latestOfOrder('o1'), await r.languageOf('o1'), await r.languageOf('nope'));
  log.push(await r.insert(job('j1', 'p1', 0, 10)), await r.insert(job('j2', 'p1', 1, 20)), await r.insert(job('j3', 'p2', 0, 30)));
  log.push(await r.head('p1'), await r.waiting('p1'), await r.drawerOpened('o1'), await r.latestOfOrder('o1'), await r.get('j2'), await r.get('nope'));
  log.push([await r.start(1, 100), await r.start(1, 101), await r.retry(1, 'paper out', 500, 102), await r.retry(1, 'again', 600, 103)]);
  log.push([await r.start(1, 501), await r.done(1, 502), await r.done(1, 503), await r.fail(1, 'late', 504)]);
  log.push([await r.start(2, 600), await r.start(3, 601), await r.fail(3, 'offline', 602)]);
  log.push([await r.touch(2, 660), await r.touch(1, 661), await r.failInterrupted('p1', 'restarted', 700, 650), await r.failInterrupted('p2', 'restarted', 700, 700)]);
  log.push([await r.failInterrupted('p1', 'restarted', 701, 701), await r.failInterrupted('p1', 'restarted', 702, 702)]);
  log.push(await r.list({ limit: 10 }), await r.list({ orderId: 'o1', state: 'failed', limit: 1 }), await r.list({ state: 'done', limit: 5 }), await r.list({ orderId: 'nope', limit: 5 }));
  log.push(await r.head('p1'), await r.waiting('p2'));
  return log;
}

describe.skipIf(!postgresAvailable())(postgresSuite('PostgreSQL repositories, parity with SQLite'), () => {
  it('allocations: grants, give-backs, consumption, renewal, lapse and kept requests answer the same', async () => {
    const { db, pool } = await both();
    const pgLog = await allocations(createPgAllocationRepo(pool));
    expect(pgLog).toEqual(await allocations(createAllocationRepo(db)));
    expect(pgLog).toContainEqual({ error: 'allocation of standing for t1 is short of 5' });
    expect(pgLog).toContainEqual({ capacity: 40, held: 0, sold: 0, allocated: 3, seating: 'general', active: 1 });
    db.close();
  });

  it('holdings: places in hand, venue counts, sync progress and upstream carts answer the same', async () => {
    const { db, pool } = await both();
    expect(await holdings(createPgHoldingRepo(pool), execPg(pool))).toEqual(await holdings(createHoldingRepo(db), execSqlite(db)));
    db.close();
  });

  it('API keys: create, authenticate, expiry, revoke, replace and list answer the same', async () => {
    const { db, pool } = await both();
    expect(await keys(createPgKeyRepo(pool))).toEqual(await keys(createKeyRepo(db)));
    db.close();
  });

  it('the staff PIN: none, saved, and a second save keeps the first (and answers it)', async () => {
    const { db, pool } = await both();
    for (const r of [createStaffPinRepo(db), createPgStaffPinRepo(pool)]) {
      expect(await r.hash()).toBeUndefined();
      expect(await r.save('scrypt$abc', 5)).toBe('scrypt$abc');
      expect(await r.hash()).toBe('scrypt$abc');
      expect(await r.save('scrypt$def', 6)).toBe('scrypt$abc');
      expect(await r.hash()).toBe('scrypt$abc');
    }
    db.close();
  });

  it('print jobs: the queue, claims, retries, failures and listing answer the same', async () => {
    const { db, pool } = await both();
    const pgLog = await printJobs(createPgPrintJobRepo(pool), execPg(pool));
    expect(pgLog).toEqual(await printJobs(createPrintJobRepo(db), execSqlite(db)));
    expect(pgLog).toContainEqual([true, false, true, false]);
    expect(pgLog).toContainEqual([true, true, false, false]);
    expect(pgLog).toContainEqual([true, false, 0, 0]); // a job touched since is not failed as interrupted
    expect(pgLog).toContainEqual([1, 0]);
    db.close();
  });
});
