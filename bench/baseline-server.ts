import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The baseline: the stack's own limit. A minimal Fastify + better-sqlite3 server with the engine's database
 * settings (WAL, synchronous=FULL, foreign keys) whose one endpoint, POST /carts, does one transaction comparable
 * to creating a cart — read a row, insert a cart and two items, update a counter — and answers 201 with a body of
 * similar shape and size. No keys, no pricing rules, no schema beyond the body's.
 *
 * `node --import tsx bench/baseline-server.ts --data DIR` prints `listening on URL` when ready.
 */

const dataDir = process.argv[process.argv.indexOf('--data') + 1] ?? '';
if (!dataDir || !process.argv.includes('--data')) throw new Error('usage: baseline-server.ts --data DIR');
mkdirSync(dataDir, { recursive: true });
const db = new Database(join(dataDir, 'baseline.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');
db.exec(`
  CREATE TABLE IF NOT EXISTS stock (id TEXT PRIMARY KEY, name TEXT NOT NULL, price INTEGER NOT NULL,
    capacity INTEGER NOT NULL, held INTEGER NOT NULL DEFAULT 0) STRICT;
  CREATE TABLE IF NOT EXISTS carts (id TEXT PRIMARY KEY, stock_id TEXT NOT NULL REFERENCES stock(id),
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS cart_items (id TEXT PRIMARY KEY, cart_id TEXT NOT NULL REFERENCES carts(id),
    position INTEGER NOT NULL, name TEXT NOT NULL, quantity INTEGER NOT NULL, unit_price INTEGER NOT NULL) STRICT;
  CREATE INDEX IF NOT EXISTS cart_items_by_cart ON cart_items(cart_id, position);
  INSERT OR IGNORE INTO stock (id, name, price, capacity) VALUES ('standing', 'Standing — Adult', 3900, 1000000000);
`);

const readStock = db.prepare<[string], { id: string; name: string; price: number; capacity: number; held: number }>(
  'SELECT id, name, price, capacity, held FROM stock WHERE id = ?');
const insertCart = db.prepare<[string, string, number, number]>('INSERT INTO carts (id, stock_id, created_at, expires_at) VALUES (?, ?, ?, ?)');
const insertItem = db.prepare<[string, string, number, string, number, number]>(
  'INSERT INTO cart_items (id, cart_id, position, name, quantity, unit_price) VALUES (?, ?, ?, ?, ?, ?)');
const hold = db.prepare<[number, string, number]>('UPDATE stock SET held = held + ? WHERE id = ? AND held + ? <= capacity');

/** Two tickets as two cart items of one each: read the stock row, insert the cart and its two items, hold two. */
const createCart = db.transaction((stockId: string) => {
  const quantity = 2;
  const stock = readStock.get(stockId);
  if (!stock) return undefined;
  const now = Date.now();
  const id = randomUUID();
  insertCart.run(id, stockId, now, now + 3_600_000);
  const items = [0, 1].map((position) => {
    const itemId = `itm_${randomBytes(12).toString('base64url')}`;
    insertItem.run(itemId, id, position, stock.name, 1, stock.price);
    return { id: itemId, type: 'admission', name: stock.name, quantity: 1, unitPrice: { amount: stock.price, currency: 'EUR' },
      total: { amount: stock.price, currency: 'EUR' }, inventoryItemId: stock.id };
  });
  if (hold.run(quantity, stockId, quantity).changes !== 1) throw new Error('sold out');
  const total = { amount: stock.price * quantity, currency: 'EUR' };
  return {
    id,
    expiresAt: new Date(now + 3_600_000).toISOString(),
    currency: 'EUR',
    total,
    items,
    receiptLines: [{ type: 'admission', label: `${quantity} × ${stock.name}`, sign: 1, amount: total }],
    vouchers: [],
    options: { currencies: ['EUR', 'USD'], extras: [{ id: 'parking', name: 'Parking', price: { amount: 800, currency: 'EUR' }, maxQuantity: 4 }] },
  };
});

const app = Fastify({ logger: false });
const body = {
  type: 'object',
  required: ['items'],
  properties: {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['occurrenceId', 'inventoryItemId', 'priceOptionId', 'quantity'],
        properties: { occurrenceId: { type: 'string' }, inventoryItemId: { type: 'string' }, priceOptionId: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
      },
    },
  },
} as const;

app.post<{ Body: { items: { inventoryItemId: string; quantity: number }[] } }>('/carts', { schema: { body } }, async (request, reply) => {
  const [first] = request.body.items;
  const cart = first && createCart.immediate(first.inventoryItemId);
  if (!cart) return reply.code(404).send({ error: { code: 'RESOURCE_NOT_FOUND' } });
  return reply.code(201).send({ data: cart });
});
app.get('/health', async () => ({ status: 'ok' }));

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${address}`);
const stop = () => void app.close().then(() => {
  db.close();
  process.exit(0);
});
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
