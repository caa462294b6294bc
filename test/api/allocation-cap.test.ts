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
  return { hub: engine, tills: [engine.createKey(SYNC_SCOPES), engine.createKey(SYNC_SCOPES), engine.createKey(SYNC_SCOPES)] };
}

const ask = (hub: TestEngine, key: string, change: number, minimum?: number, inventoryItemId: string = ALLOC.floor.inventoryItemId) =>
  hub.request<Answer & ErrorEnvelope>('POST', '/allocations', {
    key,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { changes: [{ occurrenceId: ALLOC.occurrenceId, inventoryItemId, change, ...(minimum !== undefined && { minimum }) }] },
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
    expect(refused.details).toMatchObject({ availableQuantity: 50, requestedQuantity: 51, allocated: 50 });
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

describe('--allocation-cap set by the venue', () => {
  it('N places per item', async () => {
    const { hub, tills } = await startHub(200, { allocationCap: { places: 3 } });
    const [a] = tills;
    if (!a) throw new Error('keys');
    expect((await ask(hub, a, 10)).body.data.allocations[0]).toMatchObject({ quantity: 3, available: 197 });
    expectError(await ask(hub, a, 10, 4), 409, 'INVENTORY_EXHAUSTED');
  });
});
