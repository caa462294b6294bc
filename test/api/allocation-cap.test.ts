import { afterEach, describe, expect, it } from 'vitest';
import { ALLOC, allocationCatalog, seatId } from '../fixtures/allocation-catalog';
import { startTestEngine, type ErrorEnvelope, type TestEngine } from '../helpers/engine';
import { expectError } from '../helpers/orders';
import { catalogFile, SYNC_SCOPES } from '../sync/harness';
import type { EngineOptions } from '../../engine/start';

/**
 * Issue #22: one terminal took a whole venue's stock in one POST /allocations. A hub caps what one terminal
 * holds of one item (--allocation-cap; default 25 % of the item, at least 10 places): past it a grant gives up
 * to the cap, or nothing and 409 INVENTORY_EXHAUSTED below its `minimum` (contract §10's rules).
 */

interface Answer {
  data: { allocations: { quantity: number; available: number; change?: number }[] };
}

let engine: TestEngine | undefined;
let remove: (() => void) | undefined;
afterEach(async () => {
  await engine?.close();
  remove?.();
  engine = undefined;
});

async function startHub(floor: number, options: Partial<EngineOptions> = {}) {
  const file = catalogFile(allocationCatalog({ floor, seats: 2 }));
  remove = file.remove;
  engine = await startTestEngine({ catalogFile: file.path, demo: false, ...options });
  return { hub: engine, tills: [await engine.createKey(SYNC_SCOPES), await engine.createKey(SYNC_SCOPES), await engine.createKey(SYNC_SCOPES)] };
}

const ask = (hub: TestEngine, key: string, change: number, minimum?: number, inventoryItemId: string = ALLOC.floor.inventoryItemId, forSale?: number) =>
  hub.request<Answer & ErrorEnvelope>('POST', '/allocations', {
    key,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { changes: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId, change, ...(minimum !== undefined && { minimum }), ...(forSale !== undefined && { forSale }) }] },
  });

describe('the cap per terminal, at the default (25 %, at least 10 places)', () => {
  it('one till asking for the whole house of 200 gets 50; two more get theirs; a quarter stays for everyone else', async () => {
    const { hub, tills } = await startHub(200);
    const [a, b, c] = tills;
    if (!a || !b || !c) throw new Error('keys');
    const greedy = await ask(hub, a, 200);
    expect(greedy.status).toBe(200);
    expect(greedy.body.data.allocations[0]).toMatchObject({ quantity: 50, change: 50, available: 150 });
    // at the cap: a further grant gives nothing; with a minimum, 409 with what it could hold
    expect((await ask(hub, a, 5)).body.data.allocations[0]).toMatchObject({ quantity: 50, change: 0 });
    const refused = expectError(await ask(hub, a, 5, 1), 409, 'INVENTORY_EXHAUSTED');
    expect(refused.details).toMatchObject({ availableQuantity: 50, requestedQuantity: 51, allocated: 50, reason: 'allocation_cap', allocationCap: 50 });
    expect((await ask(hub, b, 80)).body.data.allocations[0]).toMatchObject({ quantity: 50 });
    expect((await ask(hub, c, 80)).body.data.allocations[0]).toMatchObject({ quantity: 50, available: 50 });
    // giving back makes room again, up to the cap
    expect((await ask(hub, a, -20)).body.data.allocations[0]).toMatchObject({ quantity: 30 });
    expect((await ask(hub, a, 40)).body.data.allocations[0]).toMatchObject({ quantity: 50, change: 20 });
  });

  it('a block within the cap is granted whole (a school class of 30 in a room of 120); a small room still gives 10; a seat is granted', async () => {
    const { hub, tills } = await startHub(120);
    const [a] = tills;
    if (!a) throw new Error('keys');
    expect((await ask(hub, a, 30, 30)).body.data.allocations[0]).toMatchObject({ quantity: 30 });
    expect((await ask(hub, a, 1, 1, seatId(0))).body.data.allocations[0]).toMatchObject({ quantity: 1 });
    await engine?.close();
    remove?.();
    const small = await startHub(20);
    const [till] = small.tills;
    if (!till) throw new Error('keys');
    expect((await ask(small.hub, till, 20)).body.data.allocations[0]).toMatchObject({ quantity: 10, available: 10 });
  });
});

describe('the shortfall of a sale in progress (forSale) is granted beyond the cap', () => {
  it('a group of 30 in a room of 100: 20 for the sale past the cap of 25, 10 to keep within it', async () => {
    const { hub, tills } = await startHub(100);
    const [a] = tills;
    if (!a) throw new Error('keys');
    expect((await ask(hub, a, 10)).body.data.allocations[0]).toMatchObject({ quantity: 10 });
    // without forSale the same request is capped: 409, and the reason says it was the cap
    const capped = expectError(await ask(hub, a, 30, 20), 409, 'INVENTORY_EXHAUSTED');
    expect(capped.details).toMatchObject({ availableQuantity: 25, requestedQuantity: 30, reason: 'allocation_cap', allocationCap: 25 });
    expect((await ask(hub, a, 30, 20, undefined, 20)).body.data.allocations[0]).toMatchObject({ quantity: 40, change: 30, available: 60 });
    // now past the cap: what it keeps in hand gets nothing more, a further sale's shortfall still does
    expect((await ask(hub, a, 50)).body.data.allocations[0]).toMatchObject({ quantity: 40, change: 0 });
    expect((await ask(hub, a, 15, 5, undefined, 5)).body.data.allocations[0]).toMatchObject({ quantity: 45, change: 5, available: 55 });
  });

  it('never past what the venue has left; the venue short is no cap refusal; forSale is at most change and one order', async () => {
    const { hub, tills } = await startHub(100);
    const [a, b, c] = tills;
    if (!a || !b || !c) throw new Error('keys');
    expect((await ask(hub, a, 90, 90, undefined, 90)).body.data.allocations[0]).toMatchObject({ quantity: 90, available: 10 });
    const short = expectError(await ask(hub, b, 20, 20, undefined, 20), 409, 'INVENTORY_EXHAUSTED');
    expect(short.details).toEqual({ availableQuantity: 10, requestedQuantity: 20, allocated: 0 });
    expect(expectError(await ask(hub, c, 5, undefined, undefined, 6), 400, 'INVALID_FIELD_VALUE').param).toBe('changes[0].forSale');
    expect(expectError(await ask(hub, c, 1_001, undefined, undefined, 1_001), 400, 'INVALID_FIELD_VALUE').param).toBe('changes[0].forSale');
  });
});

describe('--allocation-cap set by the venue', () => {
  it('N places per item', async () => {
    const { hub, tills } = await startHub(200, { allocationCap: { places: 3 } });
    const [a] = tills;
    if (!a) throw new Error('keys');
    expect((await ask(hub, a, 10)).body.data.allocations[0]).toMatchObject({ quantity: 3, available: 197 });
    expectError(await ask(hub, a, 10, 4), 409, 'INVENTORY_EXHAUSTED');
  });
});
