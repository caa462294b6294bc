import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { FEST, SYNC_SCOPES, catalogFile } from '../sync/harness';

/**
 * A hub's per-key rate limit (`--rate-limit`, here 5 a second) and its terminals' check-ins (issue #26): a terminal's
 * sync key carries all its gates' check-ins, and a gate whose relayed check-in got 429 would decide alone while the
 * hub is up — so POST /hub/checkins is not limited, while the key's other requests still are.
 */

const LIMIT = 5;
let hub: TestEngine;
let syncKey: string;
const file = catalogFile();

beforeAll(async () => {
  hub = await startTestEngine({ catalogFile: file.path, demo: false, allocations: false, rateLimit: LIMIT });
  syncKey = await hub.createKey(SYNC_SCOPES);
});
afterAll(async () => {
  await hub.close();
  file.remove();
});

/** a 20-character code of the tickets' alphabet that nobody sold */
const madeCode = (): string => Array.from(crypto.getRandomValues(new Uint8Array(20)), (byte) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[byte & 31]).join('');

describe('the rate limit and relayed check-ins', () => {
  it(`answers ${4 * LIMIT} relayed check-ins at once, none 429; the same key's counts are limited`, async () => {
    const relayed = await Promise.all(Array.from({ length: 4 * LIMIT }, () =>
      hub.request<{ error?: { code: string } }>('POST', '/hub/checkins', { key: syncKey, body: { id: crypto.randomUUID(), code: madeCode(), direction: 'in', gate: 'A' } })));
    // decided, each one: a code nobody sold
    expect(relayed.map((answer) => [answer.status, answer.body.error?.code])).toEqual(relayed.map(() => [404, 'TICKET_NOT_FOUND']));
    const counts = await Promise.all(Array.from({ length: 4 * LIMIT }, () => hub.request('GET', `/hub/occurrences/${FEST.occurrenceId}/checkins`, { key: syncKey })));
    expect(counts.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
  });
});
