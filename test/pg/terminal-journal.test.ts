import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';
import { sellMany, startPair, type SyncPair } from '../sync/harness';
import { cancel, closeShift, expectOrdersAtHub, expectSameJournal, openShift, payIn, report, waitForJournalSynced } from '../sync/journal-helpers';

/**
 * A hub on PostgreSQL keeps its terminals' journals (contract §14, §16): a terminal (SQLite) sells in a shift,
 * closes it, and its journal reaches the hub exactly once, stored in terminal_journal on PostgreSQL, the same chain
 * entry for entry, its shift listed under GET /shifts?terminal= with the Z report. A lost answer on the way.
 */

let pair: SyncPair | undefined;

describe.skipIf(!postgresAvailable())(postgresSuite("a terminal's journal at a hub on PostgreSQL"), () => {
  beforeAll(async () => {
    const url = await createTestDatabase();
    pair = await startPair({ proxy: { seed: 3 }, upstream: { database: url } });
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('arrives exactly once with the same hashes, and the hub lists the shift with its Z report', async () => {
    if (!pair) throw new Error('not started');
    const { upstream, kiosk, proxy } = pair;
    expect(upstream.database).toMatch(/^postgres/);
    // the first journal request's answer is lost after the hub stored it
    proxy.setRates({ loseAfterForward: 1 }, { method: 'POST', path: /^\/api\/v3\/hub\/journal$/ });
    proxy.onEvent((event) => {
      if (event.kind === 'lost') proxy.heal();
    });
    const shift = await openShift(kiosk);
    const orders = await sellMany(kiosk, 5, 0, { seats: false });
    const [first] = orders;
    if (first) await cancel(kiosk, first.id);
    await payIn(kiosk, shift.id, 700);
    await closeShift(kiosk, shift.id, 20_000);
    await waitForJournalSynced(kiosk, 30_000);

    const everyone = await upstream.request<{ data: { terminal: string; id: string; report?: unknown }[] }>('GET', '/shifts?terminal=all');
    expect(everyone.status).toBe(200);
    expect(everyone.body.data).toHaveLength(1);
    const [listed] = everyone.body.data;
    const terminal = listed?.terminal ?? '';
    expect(listed).toMatchObject({ id: shift.id, status: 'closed', zNumber: 1, report: await report(kiosk, shift.id) });
    await expectSameJournal(upstream, terminal, kiosk.dataDir);
    await expectOrdersAtHub(upstream, orders, first ? [first.id] : []);
    expect(proxy.events.filter((event) => event.route === 'POST /hub/journal' && event.kind === 'lost')).toHaveLength(1);
  }, 60_000);
});
