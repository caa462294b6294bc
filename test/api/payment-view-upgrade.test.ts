import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentView } from '../../engine/contract/order';
import { concert, createCart } from '../helpers/cart-assertions';
import { onPostgres, sqliteOnly, startTestEngine, type TestEngine } from '../helpers/engine';
import { card, cash, eur, listOrders, placeOrder, type Order } from '../helpers/orders';

/**
 * Issue #23: an order's payment is derived from its payment attempt (migration 0018), no longer copied into
 * orders.payment. A database from before 0018 — its orders' payments stored as JSON, its attempts without
 * `refunded_at` — answers every order's payment as it did once the engine has started on it: a refunded card
 * payment keeps its refund's time (back-filled from the stored JSON), a captured one reads the same, and an order
 * without an attempt shows its stored view.
 *
 * The old database is made from a real one: orders placed through the API, then the file put back in its
 * 0017 shape (the column dropped, the version set back, the JSON an engine before 0018 wrote put in the rows).
 */

const REFUNDED_AT = '2026-01-02T03:04:05.678Z'; // not the clock of this run: only the stored JSON knows it

describe.skipIf(onPostgres)(sqliteOnly('an order of a database from before migration 0018', 'a SQLite file rewritten to its 0017 shape'), () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-payview-'));
  let engine: TestEngine;
  const stored = new Map<string, PaymentView>();
  let orders: Order[];
  beforeAll(async () => {
    const before = await startTestEngine({ dataDir });
    const refunded = await order(before, card());
    const cancel = await before.request<{ data: Order }>('POST', `/orders/${refunded.id}/cancel`);
    expect(cancel.body.data.payment.status).toBe('refunded');
    const captured = await order(before, cash(eur(20_000)));
    const withoutAttempt = await order(before, cash());
    orders = [refunded, captured, withoutAttempt];
    await before.close();

    // what an engine before 0018 kept in orders.payment
    stored.set(refunded.id, { ...refunded.payment, status: 'refunded', refundedAt: REFUNDED_AT });
    stored.set(captured.id, captured.payment);
    stored.set(withoutAttempt.id, { method: 'cash', status: 'captured', amount: withoutAttempt.total, tendered: eur(50_000),
      change: eur(50_000 - withoutAttempt.total.amount) });
    const db = new Database(join(dataDir, 'kassa.sqlite'));
    try {
      const write = db.prepare<[string, string]>('UPDATE orders SET payment = ? WHERE id = ?');
      for (const [id, payment] of stored) write.run(JSON.stringify(payment), id);
      db.prepare<[string]>('DELETE FROM payment_attempts WHERE order_id = ?').run(withoutAttempt.id);
      db.exec('ALTER TABLE payment_attempts DROP COLUMN refunded_at');
      db.exec('DROP TABLE gift_card_entries'); // migration 0019 (issue #24), newer than the 0017 shape
      db.exec('DROP TABLE journal; DROP TABLE journal_head'); // migration 0021 (issue #25)
      db.exec('DROP TABLE cash_movements; DROP TABLE shifts'); // migration 0022 (issue #25)
      db.exec('DROP TABLE terminal_journal; DROP TABLE terminal_journal_heads; DROP TABLE terminal_shifts'); // migration 0024 (issue #25)
      db.exec('DROP TABLE ticket_keys; DROP TABLE ticket_revocations; ALTER TABLE tickets DROP COLUMN signed_code'); // migration 0026 (issue #26)
      db.exec('DROP TABLE checkins; DROP TABLE ticket_presence'); // migration 0027 (issue #26)
      db.exec('DROP TABLE checkin_conflicts'); // migration 0028 (issue #26)
      db.pragma('user_version = 17');
    } finally {
      db.close();
    }
    // the engine started again (a new server: no connection of the first one is reused)
    engine = await startTestEngine({ dataDir });
  });
  afterAll(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates the file to 0018 at start, back-filling the refund time from the stored JSON', () => {
    const db = new Database(join(dataDir, 'kassa.sqlite'), { readonly: true });
    try {
      // 0018, and every migration after it
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(18);
      const [refunded] = orders;
      expect(db.prepare<[string], { at: number | null }>('SELECT refunded_at AS at FROM payment_attempts WHERE order_id = ?').get(refunded?.id ?? ''))
        .toEqual({ at: Date.parse(REFUNDED_AT) });
    } finally {
      db.close();
    }
  });

  it('answers each order\'s payment unchanged, one by one and in a page', async () => {
    for (const { id } of orders) {
      const response = await engine.request<{ data: Order }>('GET', `/orders/${id}`);
      expect(response.status).toBe(200);
      expect(response.body.data.payment).toEqual(stored.get(id));
    }
    const page = (await listOrders(engine)).body.data;
    for (const { id } of orders) expect(page.find((listed) => listed.id === id)?.payment).toEqual(stored.get(id));
  });

  it('keeps deriving after the upgrade: cancelling the captured order refunds it from its attempt', async () => {
    const captured = orders[1];
    const cancelled = await engine.request<{ data: Order }>('POST', `/orders/${captured?.id ?? ''}/cancel`);
    expect(cancelled.body.data.payment).toEqual({ ...stored.get(captured?.id ?? ''), status: 'refunded', refundedAt: cancelled.body.data.cancelledAt });
  });
});

async function order(engine: TestEngine, payment: ReturnType<typeof card>): Promise<Order> {
  const cart = await createCart(engine, [concert(1)]);
  return placeOrder(engine, cart.id, cart.total, payment);
}
