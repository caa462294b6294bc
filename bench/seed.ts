import { randomBytes, randomUUID } from 'node:crypto';
import { immediate, openDatabase, type Db } from '../engine/store/db';
import { FLASH, HISTORY, VENUE, historyOccurrenceId } from './catalog';

/**
 * Writes straight into an engine data dir's SQLite file (opened with the engine's own `openDatabase`, so the
 * schema is migrated and the settings are the engine's): an order history of N card sales, the flash sale's
 * pre-sold seats, and the proof that the flash sale sold each remaining seat exactly once. Run only while no
 * engine has the data dir open.
 */

const DAY = 86_400_000;

/** Random ids like the engine's (`prefix_` + 16 base64url characters), drawn from a pool of random bytes. */
function idMaker() {
  let pool = Buffer.alloc(0);
  let at = 0;
  const take = (n: number): Buffer => {
    if (at + n > pool.length) {
      pool = randomBytes(1 << 16);
      at = 0;
    }
    at += n;
    return pool.subarray(at - n, at);
  };
  const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return {
    id: (prefix: string) => `${prefix}_${take(12).toString('base64url')}`,
    code: () => Array.from(take(20), (byte) => ALPHABET[byte & 31]).join(''),
  };
}

export interface SeedResult { orders: number; tickets: number; seconds: number; totalOrders: number }

/**
 * Adds `count` confirmed card orders of two standing tickets each, spread over the past shows and the 400 days
 * before yesterday (so no idempotency key of theirs is still kept), with every row a real checkout leaves:
 * the cart and its line, the order with its lines and payment, two tickets, the payment attempt and the
 * simulated provider's charge; the shows' sold counters grow to match. One transaction of prepared inserts.
 */
export function seedOrders(dataDir: string, count: number, apiKeyId: string): SeedResult {
  const started = performance.now();
  const db = openDatabase(dataDir);
  try {
    // Every row is consistent by construction; the engine itself checks foreign keys on each write.
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -3000000');
    const ids = idMaker();
    const insertCart = db.prepare(`INSERT INTO carts (id, occurrence_id, event_id, location_id, kind, currency, status, created_at, expires_at, order_id)
      VALUES (?, ?, '${HISTORY.eventId}', '${VENUE}', 'ticket', 'EUR', 'ordered', ?, ?, ?)`);
    const insertLine = db.prepare(`INSERT INTO cart_items (id, cart_id, position, type, name, quantity, unit_price, inventory_item_id, price_option_id)
      VALUES (?, ?, 0, 'admission', 'Standing — Adult', 2, ${HISTORY.price}, '${HISTORY.inventoryItemId}', '${HISTORY.priceOptionId}')`);
    const insertOrder = db.prepare(`INSERT INTO orders (id, cart_id, status, created_at, currency, total, lines, payment, api_key_id)
      VALUES (?, ?, 'confirmed', ?, 'EUR', ${2 * HISTORY.price}, ?, ?, ?)`);
    const insertTicket = db.prepare('INSERT INTO tickets (id, order_id, item_id, code, position) VALUES (?, ?, ?, ?, ?)');
    const insertAttempt = db.prepare(`INSERT INTO payment_attempts (id, cart_id, api_key_id, idempotency_key, method, amount, currency, request, state, created_at, order_id)
      VALUES (?, ?, ?, ?, 'card', ${2 * HISTORY.price}, 'EUR', '{"token":"tok_visa"}', 'captured', ?, ?)`);
    const insertCharge = db.prepare(`INSERT INTO psp_charges (reference, amount, currency, token, state, created_at)
      VALUES (?, ${2 * HISTORY.price}, 'EUR', 'tok_visa', 'approved', ?)`);
    const sell = db.prepare<[number, string]>(`UPDATE inventory_items SET sold = sold + ? WHERE occurrence_id = ? AND id = '${HISTORY.inventoryItemId}'`);
    const total = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM orders');

    const now = Date.now();
    const newest = now - DAY;
    const span = 400 * DAY;
    const eur = (amount: number) => ({ amount, currency: 'EUR' });
    immediate(db, () => {
      const perShow = new Map<string, number>();
      for (let i = 0; i < count; i++) {
        const occurrenceId = historyOccurrenceId(i % HISTORY.occurrences);
        const createdAt = newest - Math.floor(((count - i) / count) * span);
        const cartId = randomUUID();
        const itemId = ids.id('itm');
        const orderId = ids.id('ord');
        const payId = ids.id('pay');
        const item = { id: itemId, type: 'admission', name: 'Standing — Adult', quantity: 2, unitPrice: eur(HISTORY.price), total: eur(2 * HISTORY.price),
          occurrenceId, inventoryItemId: HISTORY.inventoryItemId, priceOptionId: HISTORY.priceOptionId };
        const lines = { items: [item], receiptLines: [{ type: 'admission', label: '2 × Standing — Adult', sign: 1, amount: eur(2 * HISTORY.price) }] };
        const payment = { method: 'card', status: 'captured', amount: eur(2 * HISTORY.price), reference: payId, authenticated: false };
        insertCart.run(cartId, occurrenceId, createdAt, createdAt + 900_000, orderId);
        insertLine.run(itemId, cartId);
        insertAttempt.run(payId, cartId, apiKeyId, randomUUID(), createdAt, orderId);
        insertCharge.run(payId, createdAt);
        insertOrder.run(orderId, cartId, createdAt, JSON.stringify(lines), JSON.stringify(payment), apiKeyId);
        insertTicket.run(ids.id('tkt'), orderId, itemId, ids.code(), 0);
        insertTicket.run(ids.id('tkt'), orderId, itemId, ids.code(), 1);
        perShow.set(occurrenceId, (perShow.get(occurrenceId) ?? 0) + 2);
      }
      for (const [occurrenceId, tickets] of perShow) sell.run(tickets, occurrenceId);
    });
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { orders: count, tickets: 2 * count, seconds: (performance.now() - started) / 1000, totalOrders: total.get()?.n ?? 0 };
  } finally {
    db.close();
  }
}

/** A small deterministic generator, so the flash sale's remaining seats are the same on every run. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Marks every seat of the flash sale's occurrence sold (`sold = 1`, as an earlier on-sale would have) except
 * `FLASH.left` of them scattered across the arena. Returns the seats left.
 */
export function preSellFlash(dataDir: string): string[] {
  const db = openDatabase(dataDir);
  try {
    const seats = db.prepare<[string], { id: string }>('SELECT id FROM inventory_items WHERE occurrence_id = ? ORDER BY position').all(FLASH.occurrenceId).map((row) => row.id);
    if (seats.length !== FLASH.seats) throw new Error(`flash occurrence has ${seats.length} seats, expected ${FLASH.seats}`);
    const random = mulberry32(20_000);
    for (let i = seats.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [seats[i], seats[j]] = [seats[j] as string, seats[i] as string];
    }
    const left = seats.slice(0, FLASH.left);
    immediate(db, () => {
      db.prepare<[string]>('UPDATE inventory_items SET sold = 1, held = 0 WHERE occurrence_id = ?').run(FLASH.occurrenceId);
      db.prepare<[string, string]>('UPDATE inventory_items SET sold = 0 WHERE occurrence_id = ? AND id IN (SELECT value FROM json_each(?))')
        .run(FLASH.occurrenceId, JSON.stringify(left));
    });
    return left;
  } finally {
    db.close();
  }
}

export interface FlashProof {
  soldBefore: number;
  soldAfter: number;
  heldAfter: number;
  /** seats whose held + sold exceeds their capacity */
  oversold: number;
  orders: number;
  tickets: number;
  distinctSeatsTicketed: number;
  /** seats with more than one ticket */
  seatsSoldTwice: number;
  ok: boolean;
}

export function flashSoldBefore(dataDir: string): number {
  const db = openDatabase(dataDir);
  try {
    return soldOf(db);
  } finally {
    db.close();
  }
}

const soldOf = (db: Db): number =>
  db.prepare<[string], { n: number }>('SELECT COALESCE(SUM(sold), 0) AS n FROM inventory_items WHERE occurrence_id = ?').get(FLASH.occurrenceId)?.n ?? 0;

/** What the data file says after the flash sale: exactly the remaining seats sold, once each. */
export function proveFlash(dataDir: string, soldBefore: number): FlashProof {
  const db = openDatabase(dataDir);
  try {
    const one = <T>(sql: string): T => db.prepare<[string], T>(sql).get(FLASH.occurrenceId) as T;
    const soldAfter = soldOf(db);
    const { held } = one<{ held: number }>('SELECT COALESCE(SUM(held), 0) AS held FROM inventory_items WHERE occurrence_id = ?');
    const { oversold } = one<{ oversold: number }>('SELECT COUNT(*) AS oversold FROM inventory_items WHERE occurrence_id = ? AND held + sold > capacity');
    const { orders } = one<{ orders: number }>(`SELECT COUNT(*) AS orders FROM orders o JOIN carts c ON c.id = o.cart_id
      WHERE c.occurrence_id = ? AND o.status = 'confirmed'`);
    const tickets = one<{ tickets: number; distinctSeats: number }>(`SELECT COUNT(*) AS tickets, COUNT(DISTINCT ci.inventory_item_id) AS distinctSeats
      FROM tickets t JOIN orders o ON o.id = t.order_id JOIN carts c ON c.id = o.cart_id JOIN cart_items ci ON ci.id = t.item_id
      WHERE c.occurrence_id = ? AND o.status = 'confirmed'`);
    const { twice } = one<{ twice: number }>(`SELECT COUNT(*) AS twice FROM (SELECT ci.inventory_item_id FROM tickets t
      JOIN orders o ON o.id = t.order_id JOIN carts c ON c.id = o.cart_id JOIN cart_items ci ON ci.id = t.item_id
      WHERE c.occurrence_id = ? AND o.status = 'confirmed' GROUP BY ci.inventory_item_id HAVING COUNT(*) > 1)`);
    const proof = {
      soldBefore,
      soldAfter,
      heldAfter: held,
      oversold,
      orders,
      tickets: tickets.tickets,
      distinctSeatsTicketed: tickets.distinctSeats,
      seatsSoldTwice: twice,
    };
    const ok = soldAfter - soldBefore === FLASH.left && soldAfter === FLASH.seats && oversold === 0 && orders === FLASH.left
      && tickets.tickets === FLASH.left && tickets.distinctSeats === FLASH.left && twice === 0;
    return { ...proof, ok };
  } finally {
    db.close();
  }
}
