import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { available } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { cash, checkout, orderOf } from '../helpers/orders';
import { basketOf, CONCERT, createChannel, extra, revokeChannel, ticket, v1, v1ErrorOf, type Basket, type Channel } from '../helpers/v1';

/**
 * The legacy v1 basket interface (contract §11) through the real server: the five routes, the 404/409
 * rules, references per channel, checkout of a v1 basket with v3, channels from the `keys` command, the
 * deprecation headers on every answer, the usage report and the per-channel rate limit at its default.
 */

const refs = (basket: Basket) => basket.reservations.map((r) => [r.aggregateReference, r.quantity]);

describe('v1 baskets', () => {
  let engine: TestEngine;
  let channel: Channel;
  let clock = Date.now();
  beforeAll(async () => {
    engine = await startTestEngine({ now: () => clock });
    channel = await createChannel(engine);
  });
  afterAll(() => engine.close());
  const upsert = (reference: string, reservations: unknown, as: Channel = channel) => v1(engine, as, 'PATCH', '/baskets', { body: { reference, reservations } });

  it('PATCH /baskets creates a basket: v1 money, the v3 cart behind it, the stock held', async () => {
    const before = await available(engine, CONCERT, 'standing');
    const basket = basketOf(await upsert('create-1', [ticket(2), extra('parking', 1)]));
    expect(basket).toEqual({
      reference: 'create-1',
      cartId: expect.any(String),
      reservations: [
        {
          reservationId: expect.any(String),
          productId: CONCERT,
          aggregateReference: 'standing:standing-adult',
          quantity: 2,
          price: { value: 3900, currency: 'EUR', decimalPlaces: 2 },
          total: { value: 7800, currency: 'EUR', decimalPlaces: 2 },
        },
        {
          reservationId: expect.any(String),
          productId: CONCERT,
          aggregateReference: 'extra:parking',
          quantity: 1,
          price: { value: 800, currency: 'EUR', decimalPlaces: 2 },
          total: { value: 800, currency: 'EUR', decimalPlaces: 2 },
        },
      ],
      promotions: [],
      total: { value: 8600, currency: 'EUR', decimalPlaces: 2 },
    });
    expect(await available(engine, CONCERT, 'standing')).toBe(before - 2);
    const cart = await engine.request<{ data: { id: string; total: { amount: number } } }>('GET', `/carts/${basket.cartId}`);
    expect(cart.status).toBe(200);
    expect(cart.body.data.total.amount).toBe(8600);
    expect(basketOf(await v1(engine, channel, 'GET', '/baskets/create-1'))).toEqual(basket);
  });

  it('re-sending the basket with the same tickets keeps the cart and changes its extras in place', async () => {
    const first = basketOf(await upsert('extras-1', [ticket(1), extra('parking', 1), extra('programme', 2)]));
    const second = basketOf(await upsert('extras-1', [extra('parking', 3), ticket(1), extra('drink', 1)]));
    expect(second.cartId).toBe(first.cartId);
    expect(refs(second)).toEqual([
      ['standing:standing-adult', 1],
      ['extra:parking', 3],
      ['extra:drink', 1],
    ]);
    expect(second.reservations[1]?.reservationId).toBe(first.reservations[1]?.reservationId);
    expect(second.total.value).toBe(3900 + 3 * 800 + 450);
  });

  it('changed tickets make a new cart that replaces the old one, keeping extras and promotions', async () => {
    const first = basketOf(await upsert('seats-1', [ticket(2), extra('parking', 1)]));
    basketOf(await v1(engine, channel, 'PATCH', '/baskets/seats-1/applyPromotion', { body: { code: 'WELCOME10' } }));
    const held = await available(engine, CONCERT, 'standing');
    const second = basketOf(await upsert('seats-1', [ticket(3), extra('parking', 1)]));
    expect(second.cartId).not.toBe(first.cartId);
    expect(second.promotions).toEqual(['WELCOME10']);
    expect(second.total.value).toBe(3 * 3900 + 800 - Math.round(0.1 * 3 * 3900));
    expect(await available(engine, CONCERT, 'standing')).toBe(held - 1);
    const old = await engine.request<{ error: { code: string } }>('GET', `/carts/${first.cartId}`);
    expect([old.status, old.body.error.code]).toEqual([410, 'CART_EXPIRED']);
  });

  it('applyPromotion applies a voucher; an unknown code answers 400 INVALID_VOUCHER and changes nothing', async () => {
    basketOf(await upsert('promo-1', [ticket(1)]));
    const applied = basketOf(await v1(engine, channel, 'PATCH', '/baskets/promo-1/applyPromotion', { body: { code: 'fiveoff' } }));
    expect(applied.promotions).toEqual(['FIVEOFF']);
    expect(applied.total.value).toBe(3400);
    v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets/promo-1/applyPromotion', { body: { code: 'NOPE' } }), 400, 'INVALID_VOUCHER');
    expect(basketOf(await v1(engine, channel, 'GET', '/baskets/promo-1'))).toEqual(applied);
  });

  it('DELETE a reservation drops an extra; a ticket line answers 400 ITEM_NOT_MODIFIABLE; an unknown one leaves the basket', async () => {
    const basket = basketOf(await upsert('remove-1', [ticket(1), extra('programme', 1)]));
    const [admission, programme] = basket.reservations;
    const dropped = basketOf(await v1(engine, channel, 'DELETE', `/baskets/remove-1/reservations/${programme?.reservationId}`));
    expect(refs(dropped)).toEqual([['standing:standing-adult', 1]]);
    v1ErrorOf(await v1(engine, channel, 'DELETE', `/baskets/remove-1/reservations/${admission?.reservationId}`), 400, 'ITEM_NOT_MODIFIABLE');
    expect(basketOf(await v1(engine, channel, 'DELETE', '/baskets/remove-1/reservations/itm_unknown'))).toEqual(dropped);
  });

  it('clear releases the hold (204); the cleared basket then answers 404, a new upsert starts it again', async () => {
    const basket = basketOf(await upsert('clear-1', [ticket(4)]));
    const held = await available(engine, CONCERT, 'standing');
    const cleared = await v1(engine, channel, 'PATCH', '/baskets/clear-1/clear');
    expect([cleared.status, cleared.body]).toEqual([204, '']);
    expect(await available(engine, CONCERT, 'standing')).toBe(held + 4);
    v1ErrorOf(await v1(engine, channel, 'GET', '/baskets/clear-1'), 404, 'CART_EXPIRED');
    v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets/clear-1/clear'), 404, 'CART_EXPIRED');
    v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets/clear-1/applyPromotion', { body: { code: 'WELCOME10' } }), 404, 'CART_EXPIRED');
    const again = basketOf(await upsert('clear-1', [ticket(1)]));
    expect(again.cartId).not.toBe(basket.cartId);
  });

  it('an unknown basket answers 404 RESOURCE_NOT_FOUND on every route; references are per channel', async () => {
    basketOf(await upsert('mine', [ticket(1)]));
    const other = await createChannel(engine, 'agency');
    v1ErrorOf(await v1(engine, other, 'GET', '/baskets/mine'), 404, 'RESOURCE_NOT_FOUND');
    v1ErrorOf(await v1(engine, other, 'PATCH', '/baskets/mine/applyPromotion', { body: { code: 'WELCOME10' } }), 404, 'RESOURCE_NOT_FOUND');
    v1ErrorOf(await v1(engine, other, 'DELETE', '/baskets/mine/reservations/itm_x'), 404, 'RESOURCE_NOT_FOUND');
    v1ErrorOf(await v1(engine, other, 'PATCH', '/baskets/mine/clear'), 404, 'RESOURCE_NOT_FOUND');
    // the other channel's "mine" is its own basket
    const theirs = basketOf(await upsert('mine', [ticket(2)], other));
    expect(basketOf(await v1(engine, channel, 'GET', '/baskets/mine')).cartId).not.toBe(theirs.cartId);
  });

  it('a basket is checked out with v3 POST /orders and its cartId; afterwards v1 answers 409 CART_ALREADY_ORDERED', async () => {
    const basket = basketOf(await upsert('order-1', [ticket(2), extra('drink', 2)]));
    const order = orderOf(await checkout(engine, basket.cartId, { amount: basket.total.value, currency: basket.total.currency }, cash()));
    expect(order.cartId).toBe(basket.cartId);
    expect(order.total).toEqual({ amount: 3900 * 2 + 900, currency: 'EUR' });
    expect(order.tickets).toHaveLength(2);
    v1ErrorOf(await v1(engine, channel, 'GET', '/baskets/order-1'), 409, 'CART_ALREADY_ORDERED');
    v1ErrorOf(await upsert('order-1', [ticket(1)]), 409, 'CART_ALREADY_ORDERED');
    v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets/order-1/clear'), 409, 'CART_ALREADY_ORDERED');
  });

  it('a basket whose hold lapsed (default hold, 900 s) answers 404 CART_EXPIRED, and an upsert starts it again', async () => {
    basketOf(await upsert('lapse-1', [ticket(1)]));
    clock += 900_000 + 1;
    v1ErrorOf(await v1(engine, channel, 'GET', '/baskets/lapse-1'), 404, 'CART_EXPIRED');
    expect(basketOf(await upsert('lapse-1', [ticket(1)])).reservations).toHaveLength(1);
  });
});

describe('v1 channels, headers and usage', () => {
  let engine: TestEngine;
  let channel: Channel;
  beforeAll(async () => {
    engine = await startTestEngine();
    channel = await createChannel(engine);
  });
  afterAll(() => engine.close());

  it('`npm run keys -- create-channel` prints channelId= and secret=, the secret alone last; revoke-channel locks it out', async () => {
    const database = engine.database === undefined ? [] : ['--database', engine.database];
    const keys = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'engine/cli/keys.ts', ...args, '--data', engine.dataDir, ...database], { encoding: 'utf8', cwd: new URL('../../', import.meta.url) });
    const created = keys('create-channel', '--name', 'box-office-plugin');
    expect(created.status, created.stderr).toBe(0);
    const lines = created.stdout.trim().split('\n');
    const id = /^channelId=(\S+)$/m.exec(created.stdout)?.[1] ?? '';
    const secret = lines.at(-1) ?? '';
    expect(created.stdout).toContain(`secret=${secret}`);
    const cli: Channel = { id, secret };
    basketOf(await v1(engine, cli, 'PATCH', '/baskets', { body: { reference: 'cli-1', reservations: [ticket(1)] } }));
    expect(keys('list-channels').stdout).toMatch(new RegExp(`${id}\\tbox-office-plugin\\t\\S+\\tactive`));
    expect(keys('revoke-channel', id).status).toBe(0);
    v1ErrorOf(await v1(engine, cli, 'GET', '/baskets/cli-1'), 401, 'INVALID_API_KEY');
    expect(keys('revoke-channel', 'ch_nothing').status).toBe(1);
    // the secret is derived from a master key only the engine's user may read; the database holds no secret
    expect(statSync(join(engine.dataDir, 'channel-master.key')).mode & 0o777).toBe(0o600);
  });

  it('answers 401 INVALID_API_KEY without channel, with an unknown or revoked channel, or a wrong checksum', async () => {
    const body = { reference: 'auth-1', reservations: [ticket(1)] };
    v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets', { body, channel: null }), 401, 'INVALID_API_KEY');
    v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets', { body, channel: { id: 'ch_unknown', secret: channel.secret } }), 401, 'INVALID_API_KEY');
    v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets', { body, channel: { id: channel.id, secret: 'chs_guess' } }), 401, 'INVALID_API_KEY');
    v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets', { body, checksum: '0'.repeat(64) }), 401, 'INVALID_API_KEY');
    // the v3 code, in v1's words, localized like every message
    const german = v1ErrorOf(await v1(engine, channel, 'PATCH', '/baskets', { body, checksum: '0'.repeat(64), headers: { 'accept-language': 'de' } }), 401, 'INVALID_API_KEY');
    expect(german.message).toContain('Prüfsumme');
    const revoked = await createChannel(engine, 'gone');
    await revokeChannel(engine, revoked.id);
    v1ErrorOf(await v1(engine, revoked, 'PATCH', '/baskets', { body }), 401, 'INVALID_API_KEY');
    v1ErrorOf(await v1(engine, channel, 'GET', '/baskets/auth-1'), 404, 'RESOURCE_NOT_FOUND');
    // a v3 API key is no v1 credential, and a channel is no v3 credential
    v1ErrorOf(await v1(engine, channel, 'GET', '/baskets/auth-1', { channel: null, headers: { 'x-svc-api-key': engine.keys.admin } }), 401, 'INVALID_API_KEY');
  });

  it('every v1 answer — success, error, unknown route, framework error — carries Deprecation, Sunset and Link', async () => {
    const answers = [
      await v1(engine, channel, 'PATCH', '/baskets', { body: { reference: 'hdr-1', reservations: [ticket(1)] } }),
      await v1(engine, channel, 'GET', '/baskets/hdr-1'),
      await v1(engine, channel, 'GET', '/baskets/none'),
      await v1(engine, channel, 'GET', '/nowhere'),
      await v1(engine, channel, 'GET', '/baskets/x', { channel: null }),
      await v1(engine, channel, 'PATCH', '/baskets', { rawBody: '{"reference":' }),
      await v1(engine, channel, 'PATCH', '/baskets', { rawBody: 'reference=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      await v1(engine, channel, 'PATCH', '/baskets', { rawBody: JSON.stringify({ reference: 'x'.repeat(300 * 1024) }) }),
      await v1(engine, channel, 'GET', '/baskets/%E0%A4%A'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 404, 404, 401, 400, 415, 413, 400]);
    for (const [index, answer] of answers.entries()) {
      expect(answer.headers.get('deprecation'), `answer ${index}`).toBe('@1767225600');
      expect(answer.headers.get('sunset')).toBe('Fri, 31 Dec 2027 23:59:59 GMT');
      expect(answer.headers.get('link')).toContain('</api/v1/migration-guide>; rel="deprecation"');
      if (answer.status >= 400) expect(Object.keys(answer.body as object).sort()).toEqual(['errorCode', 'message', 'status']);
    }
    // v3 answers carry none of them
    expect((await engine.request('GET', '/health')).headers.get('deprecation')).toBeNull();
  });

  it('the migration guide the Link names is served, with the mapping table', async () => {
    const guide = await fetch(`${engine.url}/api/v1/migration-guide`);
    expect(guide.status).toBe(200);
    expect(guide.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await guide.text();
    expect(text).toContain('| Apply discount | `PATCH /api/v1/baskets/{reference}/applyPromotion` | `POST /api/v3/carts/{cartId}/vouchers` |');
    expect(text).toContain('2027-12-31T23:59:59Z');
  });

  it('GET /api/v3/legacy/usage counts calls per channel and route (admin only)', async () => {
    const counted = await createChannel(engine, 'counted');
    basketOf(await v1(engine, counted, 'PATCH', '/baskets', { body: { reference: 'u-1', reservations: [ticket(1)] } }));
    for (let i = 0; i < 3; i += 1) basketOf(await v1(engine, counted, 'GET', '/baskets/u-1'));
    v1ErrorOf(await v1(engine, counted, 'GET', '/baskets/u-none'), 404, 'RESOURCE_NOT_FOUND');
    // a call is counted once its answer is sent (deprecation.ts, onResponse): the last one may land a moment later
    await vi.waitFor(async () => {
      const usage = await engine.request<{ data: { channelId: string; channelName: string | null; route: string; calls: number; errors: number }[] }>('GET', '/legacy/usage');
      expect(usage.status).toBe(200);
      const mine = usage.body.data.filter((row) => row.channelId === counted.id).map(({ channelName, route, calls, errors }) => ({ channelName, route, calls, errors }));
      expect(mine).toEqual([
        { channelName: 'counted', route: 'GET /api/v1/baskets/:reference', calls: 4, errors: 1 },
        { channelName: 'counted', route: 'PATCH /api/v1/baskets', calls: 1, errors: 0 },
      ]);
    }, { timeout: 5_000, interval: 50 });
    const forbidden = await engine.request<{ error: { code: string } }>('GET', '/legacy/usage', { key: engine.keys.carts });
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
  });

  it('never writes a channel secret or checksum to the log', async () => {
    basketOf(await v1(engine, channel, 'GET', '/baskets/hdr-1'));
    const logs = engine.logs();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(channel.secret);
    expect(logs).not.toMatch(/[0-9a-f]{64}/);
  });

  it('the OpenAPI document lists the v1 routes, deprecated, secured by channel and checksum', async () => {
    const doc = await engine.request<{ paths: Record<string, Record<string, { deprecated?: boolean; security?: unknown }>> }>('GET', '/openapi.json');
    const v1Operations = Object.entries(doc.body.paths)
      .filter(([path]) => path.startsWith('/api/v1/baskets'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ route: `${method} ${path}`, operation })));
    expect(v1Operations.map((o) => o.route).sort()).toEqual([
      'delete /api/v1/baskets/{reference}/reservations/{reservationId}',
      'get /api/v1/baskets/{reference}',
      'patch /api/v1/baskets',
      'patch /api/v1/baskets/{reference}/applyPromotion',
      'patch /api/v1/baskets/{reference}/clear',
    ]);
    for (const { route, operation } of v1Operations) {
      expect(operation.deprecated, route).toBe(true);
      expect(operation.security, route).toEqual([{ v1Channel: [], v1Checksum: [] }]);
    }
  });
});

describe('v1 channel secrets and the master key', () => {
  it('a replaced master key refuses the channels made under the old one with 401, and says why in the log', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kassa-v1-master-'));
    try {
      const first = await startTestEngine({ dataDir });
      const channel = await createChannel(first);
      basketOf(await v1(first, channel, 'PATCH', '/baskets', { body: { reference: 'm-1', reservations: [ticket(1)] } }));
      await first.close();
      writeFileSync(join(dataDir, 'channel-master.key'), randomBytes(32).toString('base64url'));
      const second = await startTestEngine({ dataDir });
      try {
        v1ErrorOf(await v1(second, channel, 'GET', '/baskets/m-1'), 401, 'INVALID_API_KEY');
        expect(second.logs()).toContain('channel-master.key replaced');
        expect(second.logs()).not.toContain(channel.secret);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('v1 rate limit per channel, at the default of 50 requests per second', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({ rateLimit: 50 });
  });
  afterAll(() => engine.close());

  it('a channel past its limit gets 429 RATE_LIMIT_EXCEEDED with Retry-After; another channel is unaffected', async () => {
    const busy = await createChannel(engine, 'busy');
    const calm = await createChannel(engine, 'calm');
    const answers = await Promise.all(Array.from({ length: 150 }, () => v1(engine, busy, 'GET', '/baskets/none')));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 404 || a.status === 429)).toBe(true);
    const [first] = limited;
    if (!first) throw new Error('no 429');
    v1ErrorOf(first, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(first.headers.get('sunset')).not.toBeNull();
    v1ErrorOf(await v1(engine, calm, 'GET', '/baskets/none'), 404, 'RESOURCE_NOT_FOUND');
  });
});
