import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFile } from '../sync/harness';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { FLOOR, giftLedgerCatalog } from '../helpers/gift-catalog';
import { card } from '../helpers/orders';
import { sell } from '../helpers/shifts-contract';
import { expectChain, journalPage, readJournal, verifyJournal, type JournalEntry } from '../helpers/journal-contract';

/**
 * Contract §14 and the shared design: `GET /api/v3/journal?after=SEQ&limit=N` answers `{ data: [entries],
 * nextAfter? }` — entries with seq above `after`, in seq order, at most `limit` (default 100, at most 1000), and
 * `nextAfter` while there are more.
 */

let engine: TestEngine;
let all: JournalEntry[] = [];
/** orders sold (one entry each): more than a default page */
const SALES = 106;
const file = catalogFile(giftLedgerCatalog());

beforeAll(async () => {
  engine = await startTestEngine({ catalogFile: file.path, demo: false });
  for (let i = 0; i < SALES; i++) await sell(engine, card(), [{ ...FLOOR, priceOptionId: 'child', quantity: 1 }]);
  all = await readJournal(engine);
}, 120_000);
afterAll(async () => {
  await engine.close();
  file.remove();
});

describe('§14 GET /journal paging', () => {
  it('holds an entry for every order, chained', () => {
    expect(all).toHaveLength(SALES);
    expect(new Set(all.map((entry) => entry.kind))).toEqual(new Set(['order']));
    expectChain(all);
  });

  it('without parameters: the first 100 entries from seq 1 and nextAfter 100', async () => {
    const page = await journalPage(engine);
    expect(page.status, JSON.stringify(page.body).slice(0, 300)).toBe(200);
    expect(page.body.data).toEqual(all.slice(0, 100));
    expect(page.body.nextAfter).toBe(100);
  });

  it('after=100: the rest, and no nextAfter', async () => {
    const page = await journalPage(engine, '?after=100');
    expect(page.body.data).toEqual(all.slice(100));
    expect(page.body.nextAfter).toBeUndefined();
  });

  it('limit=1000 (the most): everything at once, no nextAfter', async () => {
    const page = await journalPage(engine, '?limit=1000');
    expect(page.body.data).toEqual(all);
    expect(page.body.nextAfter).toBeUndefined();
  });

  it.each([1, 3, 7, 50])('limit=%i: pages of that size, followed through nextAfter, give every entry once in seq order', async (limit) => {
    const seen: JournalEntry[] = [];
    let query = `?limit=${limit}`;
    for (let page = 0; page < 200; page++) {
      const answer = await journalPage(engine, query);
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeLessThanOrEqual(limit);
      seen.push(...answer.body.data);
      const next = answer.body.nextAfter;
      if (next === undefined) break;
      expect(next).toBe(answer.body.data.at(-1)?.seq);
      query = `?after=${next}&limit=${limit}`;
    }
    expect(seen).toEqual(all);
  });

  it('after=k starts right after seq k; after the last seq: an empty page without nextAfter', async () => {
    expect((await journalPage(engine, '?after=5&limit=3')).body).toEqual({ data: all.slice(5, 8), nextAfter: 8 });
    const last = all.at(-1)?.seq ?? 0;
    expect((await journalPage(engine, `?after=${last}`)).body).toEqual({ data: [] });
    expect((await journalPage(engine, `?after=${last + 1000}`)).body).toEqual({ data: [] });
    expect((await journalPage(engine, '?after=0&limit=2')).body).toEqual({ data: all.slice(0, 2), nextAfter: 2 });
  });

  it('verify counts them all and names the last hash as head', async () => {
    expect(await verifyJournal(engine)).toEqual({ ok: true, entries: all.length, head: all.at(-1)?.hash });
  });
});
