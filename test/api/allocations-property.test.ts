import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOC, allocationCatalog, priceOptionOf, seatId } from '../fixtures/allocation-catalog';
import { startTestEngine, withStore, type TestEngine } from '../helpers/engine';
import { capFor, DEFAULT_ALLOCATION_CAP } from '../../engine/domain/allocations';
import { catalogFile } from '../sync/harness';
import { readRows } from '../helpers/db-rows';

/**
 * Contract §10 at the hub, as a property: random interleavings of grant, top-up, give back, sales by
 * terminals from their allocations, web-shop carts and orders, cancellations, held carts timing out and
 * allocations lapsing (the hub's clock is moved; the lapse time is the shipped default) — and after every
 * step, SQL on the hub's data file proves sold + held + allocated ≤ capacity for every item, `allocated` is
 * the sum of the terminals' live rows, no seat is sold twice, and the answers agree with the arithmetic:
 * a terminal selling within its allocation always succeeds, anyone else succeeds exactly when the places
 * are left.
 */

const FLOOR = 12;
const SEATS = 3;
const ITEMS = [ALLOC.floor.inventoryItemId, ...Array.from({ length: SEATS }, (_, i) => seatId(i))];
const HOLD_MS = 900_000;
const LAPSE_MS = 6 * 3600 * 1000; // the default
/** the default --allocation-cap (25 %, at least 10 places, at most the item): what a terminal may keep in hand */
const capOf = (itemId: string): number => (itemId === ALLOC.floor.inventoryItemId ? capFor(DEFAULT_ALLOCATION_CAP, FLOOR) : 1);

type Action =
  | { kind: 'grant'; terminal: number; item: number; change: number; minimum: boolean; forSale: boolean }
  | { kind: 'topUp'; terminal: number; target: number }
  | { kind: 'giveBack'; terminal: number; item: number; change: number }
  | { kind: 'terminalSell'; terminal: number; item: number; quantity: number }
  | { kind: 'webSell'; item: number; quantity: number; checkout: boolean }
  | { kind: 'cancel'; pick: number }
  | { kind: 'renew'; terminal: number }
  | { kind: 'advance'; ms: number };

const terminal = fc.integer({ min: 0, max: 1 });
const item = fc.integer({ min: 0, max: ITEMS.length - 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), terminal, item, change: fc.integer({ min: 1, max: 8 }), minimum: fc.boolean(), forSale: fc.boolean() }),
  fc.record({ kind: fc.constant('topUp' as const), terminal, target: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ kind: fc.constant('giveBack' as const), terminal, item, change: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('terminalSell' as const), terminal, item, quantity: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('webSell' as const), item, quantity: fc.integer({ min: 1, max: 5 }), checkout: fc.boolean() }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('renew' as const), terminal }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(60_000, HOLD_MS, LAPSE_MS / 2, LAPSE_MS) }),
);

interface Row {
  id: string;
  capacity: number;
  held: number;
  sold: number;
  allocated: number;
}

let engine: TestEngine | undefined;
let removeCatalog: (() => void) | undefined;
afterEach(async () => {
  await engine?.close();
  removeCatalog?.();
  engine = undefined;
});

describe('allocations at the hub: the invariant under random interleavings (fast-check)', () => {
  it('sold + held + allocated ≤ capacity after every step; a seat sold at most once; sales from an allocation never exhausted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 10, maxLength: 45 }), async (actions) => {
        await engine?.close();
        removeCatalog?.();
        const file = catalogFile(allocationCatalog({ floor: FLOOR, seats: SEATS }));
        removeCatalog = file.remove;
        let clock = Date.parse('2027-08-01T10:00:00Z');
        engine = await startTestEngine({ catalogFile: file.path, demo: false, now: () => clock, sweepIntervalMs: 3_600_000 });
        const hub = engine;
        const terminals = [await hub.createKey(['carts:write', 'orders:write', 'orders:import']), await hub.createKey(['carts:write', 'orders:write', 'orders:import'])];
        const web = await hub.createKey(['carts:write', 'orders:write', 'catalog:read']);
        const orders: string[] = [];

        const rows = (): Promise<Row[]> =>
          readRows<Row>(hub, 'SELECT id, capacity, held, sold, allocated FROM inventory_items WHERE occurrence_id = ? ORDER BY position', [ALLOC.occurrenceId]);
        /** what the arithmetic says is live now: carts past their deadline and lapsed allocations count for nothing */
        const live = async () => {
          const allocations = new Map(
            (await readRows<{ terminalId: string; itemId: string; q: number }>(hub,
              'SELECT terminal_id AS "terminalId", inventory_item_id AS "itemId", quantity AS q FROM allocations WHERE expires_at > ?', [clock]))
              .map((row) => [`${row.terminalId} ${row.itemId}`, row.q]),
          );
          const lefts = new Map(
            (await readRows<{ id: string; left: number }>(hub,
              `SELECT i.id, i.capacity - i.sold
                 - (SELECT COALESCE(SUM(ci.quantity), 0) FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
                    WHERE c.status = 'held' AND c.expires_at > ? AND ci.inventory_item_id = i.id)
                 - (SELECT COALESCE(SUM(a.quantity), 0) FROM allocations a WHERE a.inventory_item_id = i.id AND a.expires_at > ?) AS "left"
               FROM inventory_items i WHERE i.occurrence_id = ?`, [clock, clock, ALLOC.occurrenceId]))
              .map((row) => [row.id, row.left]),
          );
          return {
            allocation: (terminalKeyId: string, itemId: string) => allocations.get(`${terminalKeyId} ${itemId}`) ?? 0,
            left: (itemId: string) => lefts.get(itemId) ?? 0,
          };
        };
        const keyIdOf = async (key: string) => (await withStore(hub, (store) => store.repos.keys.authenticate(key, clock)))?.id ?? '';
        const terminalIds = await Promise.all(terminals.map(keyIdOf));

        const change = (t: number, changes: object[]) =>
          hub.request<{ data: { allocations: { quantity: number }[] } }>('POST', '/allocations', {
            key: terminals[t] ?? null,
            headers: { 'idempotency-key': crypto.randomUUID() },
            body: { changes },
          });
        const sell = async (key: string, itemId: string, quantity: number, payment: object, checkout: boolean) => {
          const cart = await hub.request<{ data: { id: string; total: { amount: number; currency: string } } }>('POST', '/carts', {
            key,
            body: { items: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: itemId, priceOptionId: priceOptionOf(itemId), quantity }] },
          });
          if (cart.status !== 201 || !checkout) return cart.status;
          const order = await hub.request<{ data: { id: string } }>('POST', '/orders', {
            key,
            headers: { 'idempotency-key': crypto.randomUUID() },
            body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment },
          });
          expect(order.status, JSON.stringify(order.body)).toBe(201);
          orders.push(order.body.data.id);
          return 201;
        };

        for (const [step, act] of actions.entries()) {
          const what = `step ${step} ${JSON.stringify(act)}`;
          const itemId = 'item' in act ? (ITEMS[act.item] ?? '') : '';
          const quantityOf = (q: number) => (itemId === ALLOC.floor.inventoryItemId ? q : 1);
          const before = await live();
          switch (act.kind) {
            case 'grant': {
              const wanted = quantityOf(act.change);
              const answer = await change(act.terminal, [
                { occurrenceId: ALLOC.occurrenceId, inventoryItemId: itemId, change: wanted, ...(act.minimum && { minimum: wanted }), ...(act.forSale && { forSale: wanted }) },
              ]);
              const holding = before.allocation(terminalIds[act.terminal] ?? '', itemId);
              // places for a sale in progress: up to what is left; places to keep: within the cap too
              const left = act.forSale ? before.left(itemId) : Math.min(before.left(itemId), Math.max(0, capOf(itemId) - holding));
              if (act.minimum && left < wanted) expect(answer.status, what).toBe(409);
              else {
                expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(200);
                expect(answer.body.data.allocations[0]?.quantity, what).toBe(holding + Math.min(wanted, left));
              }
              break;
            }
            case 'topUp': {
              const held = before.allocation(terminalIds[act.terminal] ?? '', ALLOC.floor.inventoryItemId);
              if (act.target === held) break;
              const answer = await change(act.terminal, [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: ALLOC.floor.inventoryItemId, change: act.target - held }]);
              expect(answer.status, what).toBe(200);
              break;
            }
            case 'giveBack': {
              const answer = await change(act.terminal, [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: itemId, change: -quantityOf(act.change) }]);
              expect(answer.status, what).toBe(200);
              const held = before.allocation(terminalIds[act.terminal] ?? '', itemId);
              expect(answer.body.data.allocations[0]?.quantity, what).toBe(Math.max(0, held - quantityOf(act.change)));
              break;
            }
            case 'terminalSell': {
              const quantity = quantityOf(act.quantity);
              const allocation = before.allocation(terminalIds[act.terminal] ?? '', itemId);
              const status = await sell(terminals[act.terminal] ?? '', itemId, quantity, { method: 'external', reference: `t${act.terminal}-${step}` }, true);
              // Within what it holds (plus what is left for anyone) it always sells; beyond, it is refused.
              expect(status, what).toBe(quantity <= allocation + before.left(itemId) ? 201 : 409);
              break;
            }
            case 'webSell': {
              const quantity = quantityOf(act.quantity);
              const status = await sell(web, itemId, quantity, { method: 'card', token: 'tok_visa' }, act.checkout);
              expect(status, what).toBe(quantity <= before.left(itemId) ? 201 : 409);
              break;
            }
            case 'cancel': {
              const orderId = orders.length === 0 ? undefined : orders[act.pick % orders.length];
              if (orderId === undefined) break;
              expect((await hub.request('POST', `/orders/${orderId}/cancel`)).status, what).toBe(200);
              break;
            }
            case 'renew':
              expect((await hub.request('GET', '/allocations', { key: terminals[act.terminal] ?? null })).status, what).toBe(200);
              break;
            case 'advance':
              clock += act.ms;
              break;
          }

          for (const row of await rows()) {
            expect(row.held + row.sold + row.allocated, `${what}: ${JSON.stringify(row)}`).toBeLessThanOrEqual(row.capacity);
          }
          const mismatched = await readRows<{ id: string }>(hub,
            `SELECT i.id FROM inventory_items i
             WHERE i.allocated <> (SELECT COALESCE(SUM(a.quantity), 0) FROM allocations a WHERE a.occurrence_id = i.occurrence_id AND a.inventory_item_id = i.id)
                OR i.held <> (SELECT COALESCE(SUM(ci.quantity), 0) FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
                              WHERE c.status = 'held' AND c.occurrence_id = i.occurrence_id AND ci.inventory_item_id = i.id)`);
          expect(mismatched, what).toEqual([]);
          const seatsSoldTwice = await readRows<{ id: string; n: number }>(hub,
            `SELECT ci.inventory_item_id AS id, SUM(ci.quantity) AS n FROM orders o JOIN cart_items ci ON ci.cart_id = o.cart_id
             WHERE o.status = 'confirmed' AND ci.inventory_item_id LIKE 'S%' GROUP BY 1 HAVING SUM(ci.quantity) > 1`);
          expect(seatsSoldTwice, what).toEqual([]);
          // The inventory the web shop reads agrees with the arithmetic at once.
          const inventory = await hub.request<{ data: { areas: { inventoryItems: { id: string; available: number }[] }[] } }>(
            'GET',
            `/occurrences/${ALLOC.occurrenceId}/inventory`,
            { key: web },
          );
          const now = await live();
          for (const listed of inventory.body.data.areas.flatMap((area) => area.inventoryItems)) {
            expect(listed.available, `${what}: ${listed.id}`).toBe(Math.max(0, now.left(listed.id)));
          }
        }
      }),
      { numRuns: 12, endOnFailure: true },
    );
  }, 120_000);
});
