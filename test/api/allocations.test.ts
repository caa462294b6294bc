import { afterEach, describe, expect, it } from 'vitest';
import { ALLOC, allocationCatalog, seatId } from '../fixtures/allocation-catalog';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { catalogFile } from '../sync/harness';

/** The allocation resource of a hub (contract §10): each answer and each refusal, at the default lapse time. */

interface AllocationsAnswer {
  data: {
    terminalId: string;
    lapseSeconds: number;
    expiresAt: string;
    allocations: { occurrenceId: string; inventoryItemId: string; quantity: number; available: number; change?: number }[];
  };
}

const floor = (change: number, minimum?: number) => ({
  occurrenceId: ALLOC.occurrenceId,
  inventoryItemId: ALLOC.floor.inventoryItemId,
  change,
  ...(minimum !== undefined && { minimum }),
});

let engine: TestEngine | undefined;
let remove: (() => void) | undefined;
let clock = Date.parse('2027-08-01T10:00:00Z');

async function hub(sizes = { floor: 20, seats: 4 }): Promise<{ hub: TestEngine; till: string; till2: string }> {
  const file = catalogFile(allocationCatalog(sizes));
  remove = file.remove;
  // the arithmetic of grants below any cap: the cap per terminal has its own tests (allocation-cap.test.ts)
  engine = await startTestEngine({ catalogFile: file.path, demo: false, now: () => clock, allocationCap: { places: 1_000_000 } });
  return { hub: engine, till: await engine.createKey(['carts:write', 'orders:write', 'orders:import']), till2: await engine.createKey(['carts:write', 'orders:import']) };
}

const post = (engine: TestEngine, key: string, changes: object[], idempotencyKey: string = crypto.randomUUID()) =>
  engine.request<AllocationsAnswer & ErrorEnvelope>('POST', '/allocations', { key, headers: { 'idempotency-key': idempotencyKey }, body: { changes } });

async function available(engine: TestEngine, itemId: string): Promise<number> {
  const answer = await engine.request<{ data: { areas: { inventoryItems: { id: string; available: number }[] }[] } }>('GET', `/occurrences/${ALLOC.occurrenceId}/inventory`);
  return answer.body.data.areas.flatMap((area) => area.inventoryItems).find((item) => item.id === itemId)?.available ?? -1;
}

afterEach(async () => {
  await engine?.close();
  remove?.();
  engine = undefined;
  clock = Date.parse('2027-08-01T10:00:00Z');
});

describe('POST /allocations', () => {
  it('grants, tops up and gives back; granted places leave available at once', async () => {
    const { hub: h, till } = await hub();
    const granted = await post(h, till, [floor(10)]);
    expect(granted.status).toBe(200);
    expect(granted.body.data.allocations).toEqual([{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: 'floor', quantity: 10, available: 10, change: 10 }]);
    expect(granted.body.data.lapseSeconds).toBe(6 * 3600);
    expect(Date.parse(granted.body.data.expiresAt)).toBe(clock + 6 * 3600 * 1000);
    expect(await available(h, 'floor')).toBe(10);

    const topped = await post(h, till, [floor(4)]);
    expect(topped.body.data.allocations[0]).toMatchObject({ quantity: 14, available: 6, change: 4 });
    const back = await post(h, till, [floor(-20)]);
    expect(back.body.data.allocations[0]).toMatchObject({ quantity: 0, available: 20, change: -14 });
    expect(await available(h, 'floor')).toBe(20);
  });

  it('grants what is left; with a minimum it grants all or nothing (409 INVENTORY_EXHAUSTED with availableQuantity)', async () => {
    const { hub: h, till, till2 } = await hub();
    await post(h, till2, [floor(15)]);
    const partial = await post(h, till, [floor(10)]);
    expect(partial.body.data.allocations[0]).toMatchObject({ quantity: 5, change: 5, available: 0 });
    await post(h, till, [floor(-2)]);
    const refused = await post(h, till, [floor(5, 4)]);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ type: 'CONFLICT_ERROR', code: 'INVENTORY_EXHAUSTED', param: 'changes[0].minimum' });
    expect(refused.body.error.details).toMatchObject({ availableQuantity: 5, requestedQuantity: 7 });
    expect((await h.request<AllocationsAnswer>('GET', '/allocations', { key: till })).body.data.allocations).toEqual([
      { occurrenceId: ALLOC.occurrenceId, inventoryItemId: 'floor', quantity: 3, available: 2 },
    ]);
  });

  it('grants a named seat once; another terminal cannot have it; given back it is on sale again', async () => {
    const { hub: h, till, till2 } = await hub();
    const seat = { occurrenceId: ALLOC.occurrenceId, inventoryItemId: seatId(0), change: 1, minimum: 1 };
    expect((await post(h, till, [seat])).body.data.allocations[0]).toMatchObject({ quantity: 1, available: 0 });
    expect(await available(h, seatId(0))).toBe(0);
    const taken = await post(h, till2, [seat]);
    expect(taken.status).toBe(409);
    expect(taken.body.error.details).toMatchObject({ availableQuantity: 0 });
    const web = await h.request('POST', '/carts', {
      body: { items: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId: seatId(0), priceOptionId: ALLOC.seats.priceOptionId, quantity: 1 }] },
    });
    expect(web.status).toBe(409);
    await post(h, till, [{ ...seat, change: -1, minimum: undefined }]);
    expect(await available(h, seatId(0))).toBe(1);
  });

  it("a terminal's cart at the hub takes from its allocation first, so its sale never meets INVENTORY_EXHAUSTED", async () => {
    const { hub: h, till } = await hub({ floor: 6, seats: 1 });
    await post(h, till, [floor(6)]);
    const web = await h.request<ErrorEnvelope>('POST', '/carts', { body: { items: [{ ...line(1) }] } });
    expect(web.status).toBe(409);
    const cart = await h.request<{ data: { id: string } }>('POST', '/carts', { key: till, body: { items: [line(6)] } });
    expect(cart.status).toBe(201);
    expect((await h.request<AllocationsAnswer>('GET', '/allocations', { key: till })).body.data.allocations).toEqual([]);
  });

  it('an order a terminal imports (POST /orders/import) uses up its allocation in the same transaction', async () => {
    const { hub: h, till } = await hub({ floor: 5, seats: 1 });
    await post(h, till, [floor(5)]);
    const imported = await h.request<{ data: { results: { status: number }[] } }>('POST', '/orders/import', {
      key: till,
      body: { orders: [{ idempotencyKey: crypto.randomUUID(), reference: 'till-ord-1', items: [line(5)], expectedTotal: { amount: 5 * ALLOC.floor.price, currency: 'EUR' } }] },
    });
    expect(imported.body.data.results[0]?.status).toBe(201);
    expect((await h.request<AllocationsAnswer>('GET', '/allocations', { key: till })).body.data.allocations).toEqual([]);
    expect(await available(h, 'floor')).toBe(0);
  });

  it('replays an answer for the same key and body; refuses the key with another body', async () => {
    const { hub: h, till } = await hub();
    const key = crypto.randomUUID();
    const first = await post(h, till, [floor(3)], key);
    const again = await post(h, till, [floor(3)], key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await available(h, 'floor')).toBe(17);
    const other = await post(h, till, [floor(4)], key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('refuses bad requests in the envelope, and keys without the terminal scope', async () => {
    const { hub: h, till } = await hub();
    const noKey = await h.request<ErrorEnvelope>('POST', '/allocations', { key: till, body: { changes: [floor(1)] } });
    expect([noKey.status, noKey.body.error.code]).toEqual([400, 'INVALID_IDEMPOTENCY_KEY']);
    const unknown = await post(h, till, [{ ...floor(1), inventoryItemId: 'nope' }]);
    expect([unknown.status, unknown.body.error.code, unknown.body.error.param]).toEqual([400, 'INVALID_FIELD_VALUE', 'changes[0].inventoryItemId']);
    const empty = await post(h, till, []);
    expect(empty.status).toBe(400);
    const denied = await post(h, h.keys.carts, [floor(1)]);
    expect([denied.status, denied.body.error.code, denied.body.error.details?.requiredScope]).toEqual([403, 'INSUFFICIENT_PERMISSIONS', 'orders:import']);
    expect((await h.request('GET', '/allocations', { key: null })).status).toBe(401);
  });

  it('an occurrence off sale grants nothing but takes places back', async () => {
    const { hub: h, till } = await hub();
    await post(h, till, [floor(5)]);
    const doc = allocationCatalog({ floor: 20, seats: 4, onSale: false });
    expect((await h.request('PUT', '/catalog', { body: doc })).status).toBe(200);
    const refused = await post(h, till, [floor(1)]);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'OCCURRENCE_NOT_AVAILABLE']);
    expect((await post(h, till, [floor(-5)])).body.data.allocations[0]).toMatchObject({ quantity: 0 });
  });
});

describe('lapse (default 6 hours)', () => {
  it('lapses 6 hours after the last call; each call renews', async () => {
    const { hub: h, till } = await hub();
    await post(h, till, [floor(8)]);
    clock += 5 * 3600 * 1000;
    expect(await available(h, 'floor')).toBe(12);
    await h.request('GET', '/allocations', { key: till }); // renews until 11 h
    clock += 5 * 3600 * 1000;
    expect(await available(h, 'floor')).toBe(12);
    clock += 3600 * 1000;
    expect(await available(h, 'floor')).toBe(20);
    expect((await h.request<AllocationsAnswer>('GET', '/allocations', { key: till })).body.data.allocations).toEqual([]);
  });
});

function line(quantity: number) {
  return { occurrenceId: ALLOC.occurrenceId, inventoryItemId: ALLOC.floor.inventoryItemId, priceOptionId: ALLOC.floor.priceOptionId, quantity };
}
