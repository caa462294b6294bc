import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine } from '../helpers/engine';
import { placeOrder } from '../helpers/orders';
import { runCrashDrill } from './crash-drill';
import { checkInvariants } from './invariants';

/**
 * The crash drill, small: 5 SIGKILLs at random points of a mixed load, the SQL invariants checked after each
 * restart (test/drill/crash-drill.ts). `npm run drill` runs the full 100.
 */
describe('crash drill', () => {
  it('5 SIGKILLs mid-load: every invariant holds after every restart, and every answered order is still there', async () => {
    const report = await runCrashDrill({ kills: 5 });
    expect(report.violations).toEqual([]);
    expect(report.kills).toBe(5);
    expect(report.ordersSeen).toBeGreaterThan(0);
  }, 600_000);

  it('the invariants catch what a broken engine would leave: stock off by one, a lost order, an unrefunded cancel', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-invariants-'));
    const engine = await startTestEngine({ dataDir });
    const cart = await createCart(engine, [concert(2)]);
    const order = await placeOrder(engine, cart.id, cart.total);
    await engine.close();
    const seen = { orders: new Set([order.id]), cancelled: new Set<string>() };
    const db = new Database(join(engine.dataDir, 'kassa.sqlite'));
    try {
      db.prepare("UPDATE inventory_items SET held = held + 1 WHERE id = 'standing' AND occurrence_id = 'brass-2027-03-12'").run();
      db.prepare("UPDATE orders SET status = 'cancelled' WHERE id = ?").run(order.id);
    } finally {
      db.close();
    }
    seen.orders.add('ord_never_written');
    const problems = checkInvariants(dataDir, seen).join('\n');
    rmSync(dataDir, { recursive: true, force: true });
    expect(problems).toMatch(/held stock that held carts do not account for/);
    expect(problems).toMatch(/a cancelled order whose payment is not refunded/);
    expect(problems).toMatch(/orders answered 201 but gone: ord_never_written/);
  });
});
