import { describe, expect, it } from 'vitest';
import { hubWithSyncKey, madeCode } from '../helpers/checkins';
import { FEST } from '../sync/harness';

/**
 * A hub's per-key rate limit (`--rate-limit`, here 5 a second) and its terminals' check-ins (issue #26): a terminal's
 * sync key carries all its gates' check-ins, and a gate whose relayed check-in got 429 would decide alone while the
 * hub is up — so POST /hub/checkins is not limited, while the key's other requests still are.
 */

const LIMIT = 5;
const fixture = hubWithSyncKey({ rateLimit: LIMIT });

describe('the rate limit and relayed check-ins', () => {
  it(`answers ${4 * LIMIT} relayed check-ins at once, none 429; the same key's counts are limited`, async () => {
    const relayed = await Promise.all(Array.from({ length: 4 * LIMIT }, () =>
      fixture.hub.request<{ error?: { code: string } }>('POST', '/hub/checkins', { key: fixture.syncKey, body: { id: crypto.randomUUID(), code: madeCode(), direction: 'in', gate: 'A' } })));
    // decided, each one: a code nobody sold
    expect(relayed.map((answer) => [answer.status, answer.body.error?.code])).toEqual(relayed.map(() => [404, 'TICKET_NOT_FOUND']));
    const counts = await Promise.all(Array.from({ length: 4 * LIMIT }, () => fixture.hub.request('GET', `/hub/occurrences/${FEST.occurrenceId}/checkins`, { key: fixture.syncKey })));
    expect(counts.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
  });
});
