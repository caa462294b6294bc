import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../engine/store/sqlite-store';
import { openDatabase } from '../../../engine/store/db';
import type { Store } from '../../../engine/store/port';
import { loadTicketKeyRing, TicketKeyRefused } from '../../../engine/tickets/key-ring';
import { rotateTicketKey } from '../../../engine/tickets/rotate';

/** The key ring (issue #26) on a real SQLite store: signing, verifying, learning, rotation. */

const stores: { store: Store; dir: string }[] = [];
function newStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-keyring-'));
  const store = createSqliteStore(openDatabase(dir), { groupCommit: false });
  stores.push({ store, dir });
  return store;
}
afterEach(async () => {
  for (const { store, dir } of stores.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const ticket = { code: 'ABCDEFGHJKMNPQRSTVWX', occurrenceId: 'occ-1', areaId: 'stalls', seat: 'Row A, Seat 1', orderId: 'ord_1' };

describe('the ticket key ring', () => {
  it('makes one key at the first load and keeps it; verifies what it signs; refuses a changed code', async () => {
    const store = newStore();
    const ring = await loadTicketKeyRing(store);
    expect((await loadTicketKeyRing(store)).keyId).toBe(ring.keyId);
    const signed = ring.sign(ticket);
    expect(await ring.verify(signed)).toEqual(ticket);
    const [format, payload = '', signature = '', keyId = ''] = signed.split('.');
    const other = Buffer.from(JSON.stringify([ticket.code, 'occ-2', ticket.areaId, ticket.seat, ticket.orderId])).toString('base64url');
    expect(await ring.verify([format, other, signature, keyId].join('.'))).toBeUndefined();
    const flipped = Buffer.from(signature, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(await ring.verify([format, payload, flipped.toString('base64url'), keyId].join('.'))).toBeUndefined();
    expect(await ring.verify([format, payload, signature, 'AAAAAAAAAAAA'].join('.'))).toBeUndefined();
    expect(await ring.verify('not a code')).toBeUndefined();
  });

  it("verifies another engine's codes once it learned the key (also learned by another ring on the same store)", async () => {
    const till = await loadTicketKeyRing(newStore());
    const store = newStore();
    const gate = await loadTicketKeyRing(store);
    const sibling = await loadTicketKeyRing(store);
    const signed = till.sign(ticket);
    expect(await gate.verify(signed)).toBeUndefined();
    expect(await sibling.learn(await till.own())).toBe(1);
    expect(await sibling.learn(await till.own())).toBe(0);
    // gate did not learn it itself: it reads the store again when it meets the unknown key id
    expect(await gate.verify(signed)).toEqual(ticket);
    expect((await gate.list()).map((key) => key.keyId).sort()).toEqual([gate.keyId, till.keyId].sort());
    expect((await gate.own()).map((key) => key.keyId)).toEqual([gate.keyId]);
  });

  it('refuses a learned key whose id is not its key, or that is no Ed25519 key', async () => {
    const [own] = await (await loadTicketKeyRing(newStore())).own();
    const ring = await loadTicketKeyRing(newStore());
    if (!own) throw new Error('no key');
    await expect(ring.learn([{ ...own, keyId: 'AAAAAAAAAAAA' }])).rejects.toBeInstanceOf(TicketKeyRefused);
    await expect(ring.learn([{ ...own, publicKey: 'AAAA' }])).rejects.toBeInstanceOf(TicketKeyRefused);
    expect(await ring.list()).toHaveLength(1);
  });

  it('rotation: a new signing key for the same engine; the earlier one still verifies', async () => {
    const store = newStore();
    const first = await loadTicketKeyRing(store);
    const old = first.sign(ticket);
    const newKeyId = await rotateTicketKey({ store }, Date.now());
    const second = await loadTicketKeyRing(store);
    expect(second.keyId).toBe(newKeyId);
    expect(await second.verify(old)).toEqual(ticket);
    expect(second.sign(ticket).endsWith(`.${newKeyId}`)).toBe(true);
    const keys = await second.own();
    expect(keys.map((key) => key.keyId)).toEqual([first.keyId, newKeyId]);
    expect(new Set(keys.map((key) => key.engine)).size).toBe(1);
  });
});
