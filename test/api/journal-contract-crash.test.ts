import { describe, expect, it } from 'vitest';
import { concert } from '../helpers/cart-assertions';
import { withCrashRig } from '../helpers/crash-engine';
import { readRows } from '../helpers/db-rows';
import { kill } from '../helpers/serve-process';
import { httpApi, type Api } from '../sync/harness';
import { canonical, hashOf, ZERO_HASH, type JournalEntry, type JournalPage, type VerifyAnswer } from '../helpers/journal-contract';
import { eur } from '../helpers/orders';

/**
 * Contract §14: the journal "is written in the same transaction as what it records". A `serve` process is killed
 * with SIGKILL in the middle of a burst of cash sales and pay-ins; started again on the same data, its journal
 * verifies, every order has its entry and every order entry its order, every pay-in its entry and every pay-in
 * entry its movement — and the chain goes on from where it was.
 */

interface Created { status: number; body: { data?: { id: string; total: { amount: number; currency: string } } } }

async function journalOf(api: Api): Promise<JournalEntry[]> {
  const entries: JournalEntry[] = [];
  let after = 0;
  for (;;) {
    const page = await api.request<JournalPage>('GET', `/journal?after=${after}&limit=1000`);
    expect(page.status).toBe(200);
    entries.push(...page.body.data);
    if (page.body.nextAfter === undefined) return entries;
    after = page.body.nextAfter;
  }
}

async function orderIds(api: Api): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '';
  for (;;) {
    const page = await api.request<{ data: { id: string }[]; nextCursor?: string }>('GET', `/orders?limit=200${cursor}`);
    expect(page.status).toBe(200);
    ids.push(...page.body.data.map((order) => order.id));
    if (page.body.nextCursor === undefined) return ids;
    cursor = `&cursor=${encodeURIComponent(page.body.nextCursor)}`;
  }
}

describe('§14 the journal after a crash (SIGKILL during a burst)', () => {
  it('verifies, and orders and movements match their entries one for one', { timeout: 120_000 }, async () => {
    await withCrashRig('kassa-journal-crash-', async (rig) => {
      const first = await rig.serve();
      const api = httpApi(first.url, rig.key);
      const opened = await api.request<{ data: { id: string } }>('POST', '/shifts', { body: { openingFloat: eur(100_000) } });
      expect(opened.status, JSON.stringify(opened.body)).toBe(201);
      const shiftId = opened.body.data.id;

      let stop = false;
      let sold = 0;
      const sale = async (i: number): Promise<void> => {
        const occurrence = i % 2 === 0 ? 'brass-2027-03-12' : 'brass-2027-03-13';
        const cart = (await api.request('POST', '/carts', { body: { items: [concert(1, 'standing-student', occurrence)] } })) as Created;
        if (cart.status !== 201 || cart.body.data === undefined) return;
        const paid = await api.request('POST', '/orders', { body: { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } }, headers: { 'idempotency-key': crypto.randomUUID() } });
        if (paid.status === 201) sold++;
      };
      const worker = async (kind: 'sale' | 'payIn', n: number): Promise<void> => {
        for (let i = n; !stop; i += 4) {
          try {
            if (kind === 'sale') await sale(i);
            else await api.request('POST', `/shifts/${shiftId}/cash-movements`, { body: { kind: 'payIn', amount: eur(100 + i), reason: `roll ${i}` } });
          } catch {
            return; // the engine is gone
          }
        }
      };
      const burst = Promise.all([worker('sale', 0), worker('sale', 1), worker('sale', 2), worker('payIn', 3), worker('payIn', 4)]);
      // kill once the burst is well under way
      const deadline = Date.now() + 15_000;
      while (sold < 8 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await kill(first, 'SIGKILL');
      stop = true;
      await burst;

      const second = await rig.serve();
      const after = httpApi(second.url, rig.key);
      const verified = await after.request<{ data: VerifyAnswer }>('GET', '/journal/verify');
      expect(verified.body.data, JSON.stringify(verified.body)).toMatchObject({ ok: true });
      const entries = await journalOf(after);
      // the chain as the contract defines it, recomputed here
      let prev = ZERO_HASH;
      entries.forEach((entry, i) => {
        expect(entry.seq).toBe(i + 1);
        expect(entry.prevHash).toBe(prev);
        expect(entry.hash, canonical(entry)).toBe(hashOf(entry));
        prev = entry.hash;
      });
      const orderEntries = entries.filter((entry) => entry.kind === 'order').map((entry) => entry.ref).sort();
      expect(orderEntries.length, `sold ${sold}`).toBeGreaterThanOrEqual(8);
      expect(orderEntries, 'order entries vs GET /orders').toEqual((await orderIds(after)).sort());
      const movements = await readRows<{ id: string }>(rig.engine, 'SELECT id FROM cash_movements');
      expect(entries.filter((entry) => entry.kind === 'payIn').map((entry) => entry.ref).sort(), 'payIn entries vs cash_movements rows').toEqual(movements.map((row) => row.id).sort());

      // the chain goes on after the crash
      const cart = (await after.request('POST', '/carts', { body: { items: [concert(1)] } })) as Created;
      const paid = await after.request('POST', '/orders', { body: { cartId: cart.body.data?.id, expectedTotal: cart.body.data?.total, payment: { method: 'cash' } }, headers: { 'idempotency-key': crypto.randomUUID() } });
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
      const again = await after.request<{ data: VerifyAnswer }>('GET', '/journal/verify');
      expect(again.body.data, JSON.stringify(again.body)).toMatchObject({ ok: true, entries: entries.length + 1 });
    });
  });
});
