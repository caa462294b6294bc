import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert } from '../helpers/cart-assertions';
import { CONCERT, checkIn, expectVerified, keyWith, parseSigned, sellTickets, signedOf, ticketKeys, type SignedOrder, type TicketKey } from '../helpers/checkins-contract';
import { keys, SLOW, useCliCleanup } from '../helpers/cli';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { restart } from '../helpers/shifts-contract';

/**
 * Contract §15 and the shared design's rotation: the engine's key pair is made at its first start and kept (a restart
 * keeps it); `npm run keys -- rotate-ticket-key --data DIR [--database URL]` against the stopped engine's data makes a
 * new signing key, and after a restart a ticket signed before still verifies and enters, new tickets carry the new
 * key id, and GET /ticket-keys lists both. The keys command runs as a real process, on SQLite or on the run's
 * PostgreSQL database as the engine does.
 */

useCliCleanup();

let engine: TestEngine;
let gate: string;
beforeAll(async () => {
  engine = await startTestEngine();
  gate = await keyWith(engine);
});
afterAll(async () => {
  await engine.close();
});

/** where the keys command finds the engine's database: its data folder, and its PostgreSQL URL when it has one */
const databaseArgs = (): string[] => ['--data', engine.dataDir, ...(engine.database === undefined ? [] : ['--database', engine.database])];

const place = (order: SignedOrder, code: string) => ({ code, occurrenceId: CONCERT.occurrenceId, areaId: 'standing', seat: null, orderId: order.id });

describe('§15 key rotation: earlier keys keep verifying', () => {
  let before: TicketKey[];
  let earlier: SignedOrder;

  it('the key pair is kept across a restart', { timeout: SLOW }, async () => {
    before = await ticketKeys(engine, gate);
    expect(before).toHaveLength(1);
    earlier = await sellTickets(engine, [concert(2)]);
    await restart(engine);
    expect(await ticketKeys(engine, gate)).toEqual(before);
    const [ticket] = earlier.tickets;
    if (ticket === undefined) throw new Error('no ticket');
    expectVerified(signedOf(ticket), before, place(earlier, ticket.code));
  });

  it('rotate-ticket-key on the stopped engine\'s data, then a restart: both keys listed, one engine; old tickets verify and enter, new ones carry the new key', { timeout: 2 * SLOW }, async () => {
    await engine.stop();
    const rotated = await keys('rotate-ticket-key', ...databaseArgs());
    expect(rotated.code, rotated.stderr).toBe(0);
    // never a private key on the command's output
    expect(`${rotated.stdout}${rotated.stderr}`).not.toMatch(/PRIVATE|MC4CAQAwBQYDK2VwBCIEI/);
    await restart(engine);

    const after = await ticketKeys(engine, gate);
    expect(after).toHaveLength(2);
    expect(after).toEqual(expect.arrayContaining(before));
    const fresh = after.find((key) => !before.some((old) => old.keyId === key.keyId));
    if (fresh === undefined) throw new Error(`no new key in ${JSON.stringify(after)}`);
    expect(fresh.engine).toBe(before[0]?.engine);

    // a ticket signed by the earlier key: still verifies against the list, and enters by its signed code
    const [old, oldOther] = earlier.tickets;
    if (old === undefined || oldOther === undefined) throw new Error('no tickets');
    expect(parseSigned(signedOf(old)).keyId).toBe(before[0]?.keyId);
    expectVerified(signedOf(old), after, place(earlier, old.code));
    const admitted = await checkIn(engine, gate, { code: signedOf(old), occurrenceId: CONCERT.occurrenceId });
    expect(admitted.ticket.code).toBe(old.code);
    await checkIn(engine, gate, { code: oldOther.code });

    // a ticket sold now: the new key signs it
    const later = await sellTickets(engine, [concert(1)]);
    const [ticket] = later.tickets;
    if (ticket === undefined) throw new Error('no ticket');
    const parsed = expectVerified(signedOf(ticket), after, place(later, ticket.code));
    expect(parsed.keyId).toBe(fresh.keyId);
    await checkIn(engine, gate, { code: signedOf(ticket) });
  });
});
