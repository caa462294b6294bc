import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPgRevocationRepo } from '../../engine/store/postgres/revocation-repo';
import { postgresAvailable, postgresSuite } from '../helpers/postgres';
import { cartSql, inTransaction, openPair, orderSql, type Pair } from './pg-repos-a-fixture';

/**
 * A gate pulls the hub's revocations with `after=<last seq seen>` (issue #26). On PostgreSQL a seq is handed out when
 * the row is inserted, not when it commits: were two cancellations to run at once, the one with the lower seq could
 * commit after a gate already read the higher one — and that gate would never learn of its tickets, admitting them
 * offline for good. Revocations are therefore written one cancellation at a time, until each commits.
 */

let pair: Pair;
beforeEach(async () => {
  if (postgresAvailable()) pair = await openPair();
});
afterEach(async () => {
  if (postgresAvailable()) await pair.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgresAvailable())(postgresSuite('revocation cursor on PostgreSQL'), () => {
  it('a gate paging by seq misses no revocation when two cancellations commit out of their seq order', async () => {
    await pair.client.query([
      cartSql('c1'), orderSql('o-1', 'c1'), cartSql('c2'), orderSql('o-2', 'c2'),
      "INSERT INTO tickets (id, order_id, item_id, code, position) VALUES ('t1', 'o-1', 'c1-0', 'AAAAAAAAAAAAAAAAAAA1', 0), ('t2', 'o-2', 'c2-0', 'AAAAAAAAAAAAAAAAAAA2', 0)",
    ].join(';\n'));
    let releaseFirst = (): void => undefined;
    const firstHolds = new Promise<void>((resolve) => { releaseFirst = resolve; });
    let firstWrote = (): void => undefined;
    const wrote = new Promise<void>((resolve) => { firstWrote = resolve; });
    // the first cancellation takes the lower seq and is slow to commit
    const first = inTransaction(pair.pool, async (client) => {
      await createPgRevocationRepo(client).revokeOrder('o-1', '2026-12-01T19:00:00.000Z');
      firstWrote();
      await firstHolds;
    });
    await wrote;
    // the second one runs meanwhile; a gate pulls while the first has not committed
    const second = inTransaction(pair.pool, (client) => createPgRevocationRepo(client).revokeOrder('o-2', '2026-12-01T19:00:01.000Z'));
    await sleep(300);
    const reader = createPgRevocationRepo(pair.client);
    const seen: string[] = [];
    let cursor = 0;
    const pull = async () => {
      for (const row of await reader.page(cursor, 100)) {
        seen.push(row.code);
        cursor = row.seq;
      }
    };
    await pull();
    releaseFirst();
    await Promise.all([first, second]);
    await pull();
    expect(seen.sort()).toEqual(['AAAAAAAAAAAAAAAAAAA1', 'AAAAAAAAAAAAAAAAAAA2']);
  });
});
