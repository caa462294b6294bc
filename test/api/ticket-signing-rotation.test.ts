import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { keys as keysCli, SLOW, useCliCleanup } from '../helpers/cli';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { cash, placeOrder } from '../helpers/orders';
import { ticketKeys, verifySigned, type SignedOrder } from '../helpers/ticket-signing';

/**
 * Key rotation (issue #26) on both databases, with a real restart: `npm run keys -- rotate-ticket-key` prints the new
 * key id; the engine started again signs with it; the earlier key stays listed, so tickets it signed still verify.
 */

useCliCleanup();

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

async function sell(): Promise<SignedOrder> {
  const cart = await createCart(engine, [concert(2)]);
  return (await placeOrder(engine, cart.id, cart.total, cash())) as SignedOrder;
}

const keyIdOf = (order: SignedOrder): string | undefined => order.tickets[0]?.signedCode?.split('.')[3];

describe('rotating the ticket key', () => {
  it('keeps the earlier key: its tickets verify; new tickets carry the new key id', { timeout: SLOW }, async () => {
    const [before] = await ticketKeys(engine);
    const old = await sell();
    expect(keyIdOf(old)).toBe(before?.keyId);

    await engine.stop();
    const rotated = await keysCli('rotate-ticket-key', '--data', engine.dataDir, ...(engine.database === undefined ? [] : ['--database', engine.database]));
    expect(rotated.code, rotated.stderr).toBe(0);
    const newKeyId = rotated.stdout.trim();
    expect(newKeyId).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(newKeyId).not.toBe(before?.keyId);
    await engine.start();

    const keys = await ticketKeys(engine);
    expect(keys.map((key) => key.keyId)).toEqual([before?.keyId, newKeyId]);
    // the same engine: rotation keeps its id
    expect(new Set(keys.map((key) => key.engine))).toEqual(new Set([before?.engine]));
    const fresh = await sell();
    for (const order of [old, fresh]) {
      for (const ticket of order.tickets) expect(verifySigned(ticket.signedCode ?? '', keys)?.payload).toEqual([ticket.code, 'brass-2027-03-12', 'standing', null, order.id]);
    }
    expect(keyIdOf(fresh)).toBe(newKeyId);
    // the old ticket as read now: its signed code is unchanged
    const read = await engine.request<{ data: SignedOrder }>('GET', `/orders/${old.id}`);
    expect(read.body.data.tickets.map((ticket) => ticket.signedCode)).toEqual(old.tickets.map((ticket) => ticket.signedCode));
  });
});
