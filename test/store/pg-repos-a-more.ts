import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { channelSecret, createChannelRepo, type ChannelRepo } from '../../engine/store/channel-repo';
import { createOutboxRepo, type OutboxRepo, type OutboxRow } from '../../engine/store/outbox-repo';
import { createPgChannelRepo } from '../../engine/store/postgres/channel-repo';
import { createPgOutboxRepo } from '../../engine/store/postgres/outbox-repo';
import { cartSql, orderSql, parity } from './pg-repos-a-fixture';

/** Parity of the channel and outbox repositories (test/store/pg-repos-a.test.ts runs it). */
export async function channelAndOutboxParity(): Promise<void> {
  const masterKey = randomBytes(32);
  const channels = await parity<ChannelRepo>((p) => createChannelRepo(p.sqlite, masterKey), (p) => createPgChannelRepo(p.client, masterKey), async (repo, db) => {
    const one = await repo.create('shop');
    const two = await repo.create('kiosk');
    const secretOk = (answer: Awaited<ReturnType<ChannelRepo['secret']>>, id: string): unknown =>
      answer && 'secret' in answer ? answer.secret === channelSecret(masterKey, id) : answer;
    const out: unknown[] = [one.secret === channelSecret(masterKey, one.id), secretOk(await repo.secret(one.id), one.id), await repo.secret('ch_none')];
    out.push(await repo.revoke(one.id), await repo.revoke(one.id), await repo.revoke('ch_none'), await repo.secret(one.id));
    await db.exec(`UPDATE channels SET secret_hash = '${'0'.repeat(64)}' WHERE name = 'kiosk'`);
    out.push(await repo.secret(two.id));
    const listed = await repo.list();
    out.push(listed.map((row) => [row.name, row.id === one.id || row.id === two.id, typeof row.createdAt, row.revokedAt === null]));
    return out;
  });
  expect(channels).toEqual([true, true, undefined, true, true, false, undefined, { mismatch: true },
    [['shop', true, 'string', false], ['kiosk', true, 'string', true]]]);

  const outbox = await parity<OutboxRepo>((p) => createOutboxRepo(p.sqlite), (p) => createPgOutboxRepo(p.client), async (repo, db) => {
    await db.exec(['c1', 'c2', 'c3'].map((id) => cartSql(id, { lines: [] }) + orderSql(`o-${id}`, id)).join('\n'));
    const told: string[] = [];
    const stop = await repo.onAdded((kind) => told.push(kind));
    const out: unknown[] = [await repo.next(), await repo.nextDue(), await repo.oldestWaiting(), await repo.waiting(), await repo.deliveredSince(0)];
    await repo.add('order', 'o-c1', 1000);
    await repo.add('cancel', 'o-c1', 1100);
    await repo.add('order', 'o-c2', 1200);
    stop();
    await repo.add('order', 'o-c3', 1300);
    const stable = (row: OutboxRow | undefined) => row && { ...row, idempotencyKey: typeof row.idempotencyKey };
    out.push(told, stable(await repo.get(1)), stable(await repo.orderEntry('o-c2')), stable(await repo.next()), await repo.nextDue(), await repo.oldestWaiting(),
      await repo.waiting());
    await repo.setUpstreamCart(1, 'up-cart');
    await repo.markCartAttempt(1, 2000);
    await repo.markCartAttempt(1, 3000);
    await repo.markSent(1, 2500);
    await repo.markSent(1, 2600);
    await repo.setCartAttempt(2, 4000);
    await repo.setCartAttempt(2, null);
    await repo.retryLater(3, 9000, 'x'.repeat(600));
    await repo.conflict(4, 'SOLD_OUT', 'm'.repeat(700), 5000);
    out.push(stable(await repo.get(1)), stable(await repo.get(3)), (await repo.conflicts()).map(stable), await repo.nextDue());
    out.push(await repo.requeue(4), await repo.requeue(4), await repo.resolve(4, 'no'));
    await repo.conflict(4, 'SOLD_OUT', 'again', 5500);
    out.push(await repo.resolve(4, 'refunded by hand'), stable(await repo.get(4)));
    await repo.delivered(1, 'up-order', 6000);
    await repo.delivered(3, null, 6100);
    out.push(await repo.deliveredSince(0), await repo.deliveredSince(6000), await repo.deliveredSince(7000), stable(await repo.get(1)), await repo.waiting());
    out.push(await repo.state('last'));
    await repo.setState('last', 'a');
    await repo.setState('last', 'b');
    out.push(await repo.state('last'));
    // last: ready() (the PostgreSQL twin claims what it answers, which moves next_attempt_at)
    out.push((await repo.ready(8000, 10)).map(stable));
    return out;
  });
  expect(outbox[5]).toEqual(['order', 'cancel', 'order']);
}
