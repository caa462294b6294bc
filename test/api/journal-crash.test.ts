import { describe, expect, it } from 'vitest';
import { waitFor, withCrashRig } from '../helpers/crash-engine';
import { readRows } from '../helpers/db-rows';
import { onPostgres } from '../helpers/engine';
import { kill } from '../helpers/serve-process';

/**
 * Issue #25 "Done when": a `serve` process killed with SIGKILL in the middle of a burst of concurrent cash sales and
 * cancellations leaves the journal verifiable and complete — after a restart every order has exactly one `order`
 * entry and every `order` entry its order, every cancelled order exactly one `cancellation` entry and every such
 * entry a cancelled order; everything the killed process confirmed is there. (The entry is written in the
 * transaction of what it records: there is no moment at which one is committed without the other.)
 */

const OCCURRENCES = ['brass-2027-03-12', 'brass-2027-03-13'];
const WORKERS = 6;

interface Answer { status: number; body: { data?: { id: string; total: unknown } } }

describe('SIGKILL during a burst of cash sales and cancellations', () => {
  it('leaves the journal verifiable, one entry per order and per cancellation, nothing confirmed lost', async () => {
    await withCrashRig('kassa-journal-crash-', async ({ engine, key, serve }) => {
      const first = await serve();
      const headers = { 'x-svc-api-key': key, 'content-type': 'application/json' };
      const post = async (path: string, body: unknown, extra: Record<string, string> = {}): Promise<Answer> => {
        const response = await fetch(`${first.url}/api/v3${path}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as Answer['body'] };
      };
      const confirmed = new Set<string>();
      const cancelled = new Set<string>();
      let killed = false;
      const worker = async (w: number): Promise<void> => {
        for (let i = 0; !killed; i++) {
          try {
            const item = { occurrenceId: OCCURRENCES[(w + i) % 2], inventoryItemId: 'standing', priceOptionId: 'standing-adult', quantity: 1 };
            const cart = await post('/carts', { items: [item] });
            if (cart.status !== 201 || !cart.body.data) continue;
            const order = await post('/orders', { cartId: cart.body.data.id, expectedTotal: cart.body.data.total, payment: { method: 'cash' } }, { 'idempotency-key': crypto.randomUUID() });
            if (order.status !== 201 || !order.body.data) continue;
            confirmed.add(order.body.data.id);
            // every other sale is cancelled again at once (its seat goes back on sale: the burst never sells out)
            if (i % 2 === 0 && (await post(`/orders/${order.body.data.id}/cancel`, {})).status === 200) cancelled.add(order.body.data.id);
          } catch {
            return; // the process is gone
          }
        }
      };
      const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
      await waitFor(async () => confirmed.size >= 30 && cancelled.size >= 10, 60_000);
      await kill(first, 'SIGKILL');
      killed = true;
      await Promise.all(workers);

      const second = await serve();
      const verify = await fetch(`${second.url}/api/v3/journal/verify`, { headers });
      expect(verify.status).toBe(200);
      const verdict = ((await verify.json()) as { data: { ok: boolean; entries: number } }).data;
      expect(verdict.ok, JSON.stringify(verdict)).toBe(true);

      // each check one statement: one snapshot, even while a restart's recovery settles what the kill left open
      const count = async (sql: string) => Number((await readRows<{ n: number }>(engine, sql))[0]?.n);
      expect(await count("SELECT COUNT(*) AS n FROM orders o WHERE (SELECT COUNT(*) FROM journal j WHERE j.kind = 'order' AND j.ref = o.id) <> 1")).toBe(0);
      expect(await count("SELECT COUNT(*) AS n FROM journal j WHERE j.kind = 'order' AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = j.ref)")).toBe(0);
      expect(await count("SELECT COUNT(*) AS n FROM orders o WHERE o.status = 'cancelled' AND (SELECT COUNT(*) FROM journal j WHERE j.kind = 'cancellation' AND j.ref = o.id) <> 1")).toBe(0);
      expect(await count("SELECT COUNT(*) AS n FROM journal j WHERE j.kind = 'cancellation' AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = j.ref AND o.status = 'cancelled')")).toBe(0);
      expect(await count("SELECT COUNT(*) AS n FROM journal j WHERE j.kind NOT IN ('order', 'cancellation')")).toBe(0);

      const rows = await readRows<{ id: string; status: string }>(engine, 'SELECT id, status FROM orders');
      const stored = new Map(rows.map((row) => [row.id, row.status]));
      for (const id of confirmed) expect(stored.has(id), `confirmed order ${id}`).toBe(true);
      for (const id of cancelled) expect(stored.get(id), `cancelled order ${id}`).toBe('cancelled');
      expect(verdict.entries).toBeGreaterThanOrEqual(confirmed.size + cancelled.size);
    });
  }, 150_000);

  it('an order the restart settles (the provider approved, the process died before the commit) is journalled with it', async () => {
    await withCrashRig('kassa-journal-recover-', async ({ key, count, serve }) => {
      const headers = { 'x-svc-api-key': key, 'content-type': 'application/json' };
      const first = await serve(['--psp-answer-delay-ms', '60000']);
      const created = await fetch(`${first.url}/api/v3/carts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ items: [{ occurrenceId: 'tempest-2027-04-02', inventoryItemId: 'C7', priceOptionId: 'stalls-full', quantity: 1 }] }),
      });
      const cart = ((await created.json()) as { data: { id: string; total: unknown } }).data;
      const lost = fetch(`${first.url}/api/v3/orders`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } }),
      }).catch(() => 'connection lost');
      await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM psp_charges')) === 1, 15_000);
      await kill(first, 'SIGKILL');
      await lost;
      expect(await count('SELECT COUNT(*) AS n FROM journal')).toBe(0);

      const second = await serve();
      // PostgreSQL: the sweeper settles it once the killed process's lease is over (within the minute)
      if (onPostgres) await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM orders')) === 1, 75_000);
      expect(await count("SELECT COUNT(*) AS n FROM orders o JOIN journal j ON j.kind = 'order' AND j.ref = o.id")).toBe(1);
      expect(await count('SELECT COUNT(*) AS n FROM journal')).toBe(1);
      const verdict = ((await (await fetch(`${second.url}/api/v3/journal/verify`, { headers })).json()) as { data: unknown }).data;
      expect(verdict).toMatchObject({ ok: true, entries: 1 });
    });
  }, 150_000);
});
