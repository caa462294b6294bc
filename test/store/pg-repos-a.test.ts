import { describe, expect, it } from 'vitest';
import type { CartLine } from '../../engine/domain/pricing';
import { createBasketRepo, type BasketRepo } from '../../engine/store/basket-repo';
import { createCartRepo, type CartRepo } from '../../engine/store/cart-repo';
import { createCheckoutRepo, type CheckoutRepo } from '../../engine/store/checkout-repo';
import { createImportRepo } from '../../engine/store/import-repo';
import { createOrderLanguageRepo, type OrderLanguageRepo } from '../../engine/store/order-language-repo';
import { createOrderRepo, type OrderRepo } from '../../engine/store/order-repo';
import { createOrderSummaryRepo, type OrderSummaryRepo } from '../../engine/store/order-summary-repo';
import { createPgBasketRepo } from '../../engine/store/postgres/basket-repo';
import { createPgCartRepo } from '../../engine/store/postgres/cart-repo';
import { createPgCheckoutRepo } from '../../engine/store/postgres/checkout-repo';
import { createPgImportRepo } from '../../engine/store/postgres/import-repo';
import { createPgOrderLanguageRepo } from '../../engine/store/postgres/order-language-repo';
import { createPgOrderRepo } from '../../engine/store/postgres/order-repo';
import { createPgOrderSummaryRepo } from '../../engine/store/postgres/order-summary-repo';
import { createPgPspRepo } from '../../engine/store/postgres/psp-repo';
import { createPgStockRepo } from '../../engine/store/postgres/stock-repo';
import { createPspRepo, type PspRepo } from '../../engine/store/psp-repo';
import { createStockRepo, type StockRepo } from '../../engine/store/stock-repo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { cartSql, orderSql, parity, thrown } from './pg-repos-a-fixture';
import { channelAndOutboxParity } from './pg-repos-a-more';

type ImportRepo = ReturnType<typeof createImportRepo>;

const STOCK = "SELECT id, held, sold FROM inventory_items WHERE occurrence_id = 'o1' ORDER BY position";
const line = (id: string, item: string, quantity: number): CartLine => ({
  id, type: 'admission', name: `Line ${item}`, quantity, baseUnitPrice: 2500, occurrenceId: 'o1', inventoryItemId: item, priceOptionId: 'p1',
});
const cart = (id: string, expiresAt: number) => ({ id, occurrenceId: 'o1', eventId: 'e1', locationId: 'l1', kind: 'ticket' as const, currency: 'EUR', createdAt: 1000, expiresAt });

describe.skipIf(!postgresAvailable())(postgresSuite('PostgreSQL repositories (a): parity with SQLite'), () => {
  it('carts: insert with holds, lines, vouchers, currency, expiry and release', async () => {
    const seen = await parity<CartRepo>((p) => createCartRepo(p.sqlite), (p) => createPgCartRepo(p.client), async (repo, db) => {
      const out: unknown[] = [];
      await repo.insert(cart('c1', 9_000_000), [line('l-f', 'floor', 2), line('l-b', 'B', 1)], new Map([['floor', 2], ['B', 1]]), 'k2');
      out.push(await repo.get('c1'), await repo.owner('c1'), await repo.lines('c1'), await db.read(STOCK));
      await repo.addLine('c1', { id: 'l-x', type: 'extra', name: 'Programme', quantity: 1, baseUnitPrice: 500, extraId: 'x1' });
      await repo.setQuantity('c1', 'l-x', 3);
      await repo.deleteLine('c1', 'l-b'); // (the use case gives its stock back itself)
      await repo.addLine('c1', { id: 'l-y', type: 'extra', name: 'Parking', quantity: 1, baseUnitPrice: 900, extraId: 'x2' });
      await repo.setCurrency('c1', 'CHF');
      for (const code of ['LIMITED', 'FREE', 'LIMITED']) await repo.addVoucher('c1', code);
      out.push(await repo.lines('c1'), await repo.get('c1'), await repo.voucherCodes('c1'));
      await repo.removeVoucher('c1', 'LIMITED');
      await repo.addVoucher('c1', 'LIMITED');
      out.push(await repo.voucherCodes('c1'));
      // c2 expired; c3 expired but its payment is under way; c4 live
      await repo.insert(cart('c2', 1500), [line('l2', 'a', 1)], new Map([['a', 1]]));
      await repo.insert(cart('c3', 1500), [line('l3', '9', 1)], new Map([['9', 1]]));
      await repo.insert(cart('c4', 9_000_000), [line('l4', '10', 1)], new Map([['10', 1]]), 'k1');
      await db.exec(`INSERT INTO payment_attempts (id, cart_id, api_key_id, idempotency_key, method, amount, currency, request, state, created_at)
        VALUES ('pay3', 'c3', 'k1', 'i3', 'card', 100, 'EUR', '{}', 'pending', 1000)`);
      out.push(await db.read(STOCK));
      await repo.releaseExpired(1000);
      out.push(await db.read("SELECT id, status FROM carts ORDER BY id"), await db.read(STOCK));
      await repo.releaseExpired(2000);
      out.push(await db.read("SELECT id, status FROM carts ORDER BY id"), await db.read(STOCK));
      await repo.release('c1', 'deleted');
      await repo.release('c4', 'released');
      out.push(await db.read("SELECT id, status, owner FROM carts ORDER BY id"), await db.read(STOCK));
      out.push(await repo.get('nope'), await repo.owner('nope'), await repo.lines('nope'), await repo.voucherCodes('nope'));
      return out;
    });
    expect(seen[3]).toEqual([{ id: 'floor', held: 2, sold: 0 }, { id: 'B', held: 1, sold: 0 }, { id: 'a', held: 0, sold: 0 },
      { id: '10', held: 0, sold: 0 }, { id: '9', held: 0, sold: 0 }, { id: 'gone', held: 0, sold: 0 }]);
    expect(seen[11]).toEqual([{ id: 'c1', status: 'held' }, { id: 'c2', status: 'expired' }, { id: 'c3', status: 'held' }, { id: 'c4', status: 'held' }]);
  });

  it('checkout: idempotency keys, attempts and their moves, voucher reservations', async () => {
    const day = 24 * 60 * 60 * 1000;
    const seen = await parity<CheckoutRepo>((p) => createCheckoutRepo(p.sqlite), (p) => createPgCheckoutRepo(p.client), async (repo, db) => {
      await db.exec(cartSql('c1'));
      const out: unknown[] = [await repo.key('k1', 'idem', 5000)];
      await repo.beginKey('k1', 'idem', 'c1', 5000);
      out.push(await repo.key('k1', 'idem', 6000));
      await repo.finishKey('k1', 'idem', 'completed', 201, { id: 'ord1', total: 5 });
      out.push(await repo.key('k1', 'idem', 7000), await repo.key('k1', 'idem', 5000 + day));
      await repo.beginKey('k1', 'idem', 'c1', 5000 + day); // past its 24 hours: begun anew (status and body gone)
      out.push(await repo.key('k1', 'idem', 6000 + day));
      await repo.forgetKey('k1', 'idem');
      out.push(await repo.key('k1', 'idem', 6000 + day));
      await repo.beginKey('k1', 'a', 'c1', 5000);
      await repo.beginKey('k1', 'b', 'c1', 9000);
      out.push(await repo.purgeKeys(5000 + day), await repo.purgeKeys(5000 + day), await db.read('SELECT key FROM idempotency_keys'));
      for (const [id, key, createdAt] of [['pay1', 'i1', 3000], ['pay2', 'i2', 2000], ['pay3', 'i3', 4000]] as const) {
        await repo.insertAttempt({ id, cartId: 'c1', apiKeyId: 'k1', idempotencyKey: key, method: 'card', amount: 5000, currency: 'EUR',
          request: '{"token":"tok_visa"}', priced: id === 'pay3' ? null : '{"total":5000}', createdAt });
      }
      out.push(await repo.attempt('pay1'), await repo.attempt('nope'), await repo.pendingForCart('c9'), await repo.pendingForKey('k1', 'i2'),
        await repo.pendingForKey('k1', 'zz'), (await repo.openAttempts()).map((a) => a.id));
      out.push(await repo.reserveVouchers('pay1', ['FREE', 'LIMITED']), await repo.reserveVouchers('pay2', ['LIMITED']),
        await repo.reserveVouchers('pay3', ['FREE', 'LIMITED']), await db.read('SELECT code, redeemed FROM vouchers ORDER BY code'),
        await db.read('SELECT attempt_id, code FROM voucher_reservations ORDER BY attempt_id, code'));
      await repo.releaseVouchers('pay1');
      out.push(await db.read('SELECT code, redeemed FROM vouchers ORDER BY code'), await db.read('SELECT attempt_id, code FROM voucher_reservations ORDER BY attempt_id, code'));
      out.push(await repo.move('pay1', { type: 'captured' }, 'ord1'), await repo.attempt('pay1'), await repo.attemptForOrder('ord1'));
      out.push(await repo.riskDeclined('c1'), await repo.move('pay2', { type: 'failed', outcome: 'risk_declined' }), await repo.riskDeclined('c1'));
      out.push(await repo.move('pay1', { type: 'cancelled' }), (await repo.openAttempts()).map((a) => a.id));
      out.push(await thrown(() => repo.move('pay2', { type: 'captured' })), await thrown(() => repo.move('nope', { type: 'captured' })));
      out.push(await repo.move('pay3', { type: 'orphaned' }, 'ord3'), await repo.attempt('pay3'), await repo.attemptForOrder('none'));
      // the refund's confirmation keeps its time (migration 0018); the attempts of many orders in one read
      out.push(await repo.move('pay1', { type: 'refund_confirmed', at: 4_102_444_800_123 }), await repo.attempt('pay1'));
      out.push(await repo.attemptsForOrders(['ord3', 'nope', 'ord1']), await repo.attemptsForOrders([]));
      return out;
    });
    expect(seen.at(-3)).toMatchObject({ id: 'pay1', state: 'refunded', refundedAt: 4_102_444_800_123 });
    expect((seen.at(-2) as { id: string; refundedAt: number | null }[]).map((a) => [a.id, a.refundedAt])).toEqual([['pay1', 4_102_444_800_123], ['pay3', null]]);
    expect(seen.at(-1)).toEqual([]);
  });

  it('orders: insert sells the held stock; pages, tickets, gift cards, shows; cancel puts it back', async () => {
    await parity<OrderRepo>((p) => createOrderRepo(p.sqlite), (p) => createPgOrderRepo(p.client), async (repo, db) => {
      await db.exec(cartSql('c1', { lines: [['floor', 2], ['B', 1]] }) + cartSql('c2', { lines: [['a', 1]] }) + cartSql('c3', { lines: [['9', 1]] }));
      const out: unknown[] = [];
      const base = { currency: 'EUR', total: 7500, lines: '{"items":[]}' };
      await repo.insert({ ...base, id: 'ord1', cartId: 'c1', createdAt: 5000, apiKeyId: 'k2' },
        [{ id: 't1', itemId: 'c1-0', code: 'CODE1' }, { id: 't2', itemId: 'c1-0', code: 'CODE2' }, { id: 't3', itemId: 'c1-1', code: 'CODE3' }], []);
      await repo.insert({ ...base, id: 'ord2', cartId: 'c2', createdAt: 5000, apiKeyId: 'k1' }, [{ id: 't4', itemId: 'c2-0', code: 'CODE4' }],
        [{ code: 'GC2', itemId: 'c2-0', amount: 2500, currency: 'EUR' }, { code: 'GC1', itemId: 'c2-0', amount: 100, currency: 'EUR' }]);
      await repo.insert({ ...base, id: 'ord3', cartId: 'c3', createdAt: 6000, apiKeyId: 'nokey' }, [], []);
      out.push(await db.read(STOCK), await db.read('SELECT id, status, order_id FROM carts ORDER BY id'));
      out.push(await repo.get('ord1'), await repo.get('nope'), await repo.owner('ord1'), await repo.owner('ord3'), await repo.owner('nope'));
      out.push(await repo.tickets(['ord2', 'ord1']), await repo.tickets([]), await repo.giftCards(['ord1', 'ord2']));
      out.push((await repo.events(['ord1', 'ord2', 'zz'])).sort((x, y) => x.orderId.localeCompare(y.orderId)));
      const first = await repo.page(2);
      out.push(first, await repo.page(2, first[1]?.seq), await repo.page(5, 1));
      out.push(await repo.pageOf('box', 5), await repo.pageOf('k1', 5, 2), await repo.pageOf('k1', 5, 3), await repo.byTicketCode('CODE4'), await repo.byTicketCode('x'));
      const order = await repo.get('ord2');
      if (order) await repo.cancel(order, 9000);
      out.push(await repo.get('ord1'), await repo.get('ord2'), await repo.giftCards(['ord2']), await db.read(STOCK));
      return out;
    });
  });

  it('order summary: sums per currency, all orders or one owner', async () => {
    await parity<OrderSummaryRepo>((p) => createOrderSummaryRepo(p.sqlite), (p) => createPgOrderSummaryRepo(p.client), async (repo, db) => {
      const carts = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => cartSql(id, { lines: [] })).join('\n');
      await db.exec(carts + orderSql('o-1', 'c1', { total: 1000, owner: 'box' }) + orderSql('o-2', 'c2', { total: 2000, status: 'cancelled', owner: 'box' })
        + orderSql('o-3', 'c3', { total: 3000, currency: 'CHF' }) + orderSql('o-4', 'c4', { total: 4000, createdAt: 9000 })
        + orderSql('o-5', 'c5', { total: 4_000_000_000_000, currency: 'CHF', status: 'cancelled' }));
      return [await repo.between(0, 8000), await repo.between(0, 10_000, 'box'), await repo.between(0, 10_000, 'nobody'), await repo.between(5001, 9000)];
    });
  });

  it('stock: versions, ids and places in key order, live numbers, changes since a counter, areas', async () => {
    const seen = await parity<StockRepo>((p) => createStockRepo(p.sqlite), (p) => createPgStockRepo(p.client), async (repo, db) => {
      const out: unknown[] = [await repo.versions(), await repo.ids('o1'), await repo.places('o1'), await repo.live('o1'), await repo.changedSince('o1', -1)];
      await db.exec("UPDATE inventory_items SET held = 3, sold = 2 WHERE id = 'floor'; UPDATE inventory_items SET sold = 1 WHERE id = 'a'");
      const { stock } = await repo.versions();
      await db.exec("UPDATE inventory_items SET allocated = 4 WHERE id = 'floor'; UPDATE inventory_items SET capacity = 0 WHERE id = 'B'");
      await db.exec("UPDATE inventory_items SET held = 7 WHERE id = 'gone'; UPDATE inventory_items SET label = 'renamed' WHERE id = '9'");
      out.push(await repo.versions(), await repo.changedPlaces('o1', stock), await repo.changedSince('o1', stock), await repo.changedSince('o1', 999));
      out.push(await repo.live('o1'), await repo.live('o1', new Float64Array(10)), await repo.live('o2'), await repo.ids('o2'), await repo.areas('o1'), await repo.areas('o2'));
      return out;
    });
    expect(seen[1]).toEqual(['10', '9', 'B', 'a', 'floor']);
    expect(seen[4]).toEqual({ ids: '["10","9","B","a","floor"]', available: '[1,1,1,1,10]', held: '[0,0,0,0,0]' });
    expect(seen[10]).toEqual(new Float64Array([1, 0, 1, 0, 0, 0, 0, 0, 1, 3]));
  });

  it('imports, order languages and the v1 baskets', async () => {
    await parity<ImportRepo>((p) => createImportRepo(p.sqlite), (p) => createPgImportRepo(p.client), async (repo, db) => {
      await db.exec(cartSql('c1', { lines: [] }) + orderSql('o-1', 'c1'));
      await repo.record({ apiKeyId: 'k1', idempotencyKey: 'i1', reference: 'ref1', orderId: 'o-1' }, 5000);
      return [await repo.byKey('k1', 'i1'), await repo.byKey('k2', 'i1'), await repo.byReference('ref1'), await repo.byReference('x'),
        await thrown(() => repo.record({ apiKeyId: 'k1', idempotencyKey: 'i1', reference: 'ref2', orderId: 'o-1' }, 6000)).then((text) => text !== 'no error')];
    });
    await parity<OrderLanguageRepo>((p) => createOrderLanguageRepo(p.sqlite), (p) => createPgOrderLanguageRepo(p.client), async (repo, db) => {
      await db.exec(cartSql('c1', { lines: [] }) + orderSql('o-1', 'c1'));
      const before = await repo.language('o-1');
      await repo.remember('o-1', 'de');
      await repo.remember('o-1', 'fr');
      return [before, await repo.language('o-1'), await repo.language('o-2')];
    });
    await parity<BasketRepo>((p) => createBasketRepo(p.sqlite), (p) => createPgBasketRepo(p.client), async (repo, db) => {
      await db.exec("INSERT INTO channels (id, name, secret_hash, created_at) VALUES ('ch_1', 'shop', 'aa', '2026-01-01T00:00:00.000Z')");
      await repo.point('ch_1', 'basket-1', 'c1', 1000);
      await repo.point('ch_1', 'basket-1', 'c2', 2000);
      await repo.point('ch_1', 'basket-2', 'c3', 3000);
      await repo.countCall('ch_1', 'POST /basket', false, 1000);
      await repo.countCall('ch_1', 'POST /basket', true, 2000);
      await repo.countCall('', 'GET (unmatched)', true, 3000);
      await repo.countCall('ch_1', 'GET /basket', false, 4000);
      return [await repo.cartOf('ch_1', 'basket-1'), await repo.cartOf('ch_1', 'basket-2'), await repo.cartOf('ch_2', 'basket-1'), await repo.usage(),
        await db.read('SELECT channel_id, reference, cart_id, updated_at FROM v1_baskets ORDER BY reference')];
    });
  });

  it('the simulated provider\'s ledger', async () => {
    await parity<PspRepo>((p) => createPspRepo(p.sqlite), (p) => createPgPspRepo(p.client), async (repo) => {
      const out: unknown[] = [await repo.charge('pay1'), await repo.isClosed('pay1')];
      await repo.lockReference('pay1');
      await repo.recordCharge({ reference: 'pay1', amount: 500, currency: 'EUR', token: 'tok_visa' }, 1000);
      await repo.recordCharge({ reference: 'pay1', amount: 900, currency: 'EUR', token: 'tok_visa' }, 2000);
      out.push(await repo.charge('pay1'));
      await repo.refundCharge('pay1');
      await repo.close('pay2', 1000);
      await repo.close('pay2', 2000);
      out.push(await repo.charge('pay1'), await repo.isClosed('pay2'));
      await repo.insertChallenge({ reference: 'chl1', amount: 500, currency: 'EUR', shopperReference: 'c1', attemptReference: 'pay3' }, 1000);
      out.push(await repo.challenge('chl1'), await repo.challenge('x'), await repo.challengeByResult('auth1'));
      await repo.decideChallenge('chl1', 'approve', 'auth1');
      await repo.decideChallenge('chl1', 'reject', 'auth2');
      out.push(await repo.challengeByResult('auth1'), await repo.challengeByResult('auth2'));
      out.push(await repo.useChallenge('chl1', 'pay3'), await repo.useChallenge('chl1', 'pay3'), await repo.useChallenge('chl1', 'pay4'), await repo.challenge('chl1'));
      return out;
    });
  });

  it('the channels of v1 and the sync outbox', channelAndOutboxParity);
});
