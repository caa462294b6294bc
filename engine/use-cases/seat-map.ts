import { EngineError } from '../domain/errors';
import type { InventoryView } from '../contract/catalog';
import type { NameLanguage } from '../domain/names';
import type { PriceContext } from '../domain/pricing';
import type { Db } from '../store/db';
import { immediate } from '../store/db';
import { createStockRepo, type StockRepo } from '../store/stock-repo';
import { occurrenceInventory } from './catalog';
import type { EngineContext } from './context';
import { locationOf, priceContextFor } from './price-context';

/**
 * GET /occurrences/{id}/inventory at arena scale (issue #16). What a seat map says apart from its numbers —
 * areas, seats, labels, price options, names, extras — changes only with the catalog, so it is serialized
 * once per (occurrence, catalog version, language, currency and rate) into text fragments; a request reads
 * only [available, held] per item in one query and stitches the numbers between the fragments. The answer
 * is byte for byte what the response schema's serializer makes of occurrenceInventory (use-cases/catalog.ts),
 * which stays the single definition of the view and builds the fragments.
 */

interface Frame {
  readonly catalog: number;
  /** for the k-th item of the answer: its row in stock.live() (primary-key order) */
  readonly rows: Uint32Array;
  /** the answer's text around the numbers: [before available 0, between available 0 and held 0, before available 1, …, the tail] */
  readonly parts: readonly string[];
  /** the length of the answer's text without its numbers */
  readonly length: number;
}

/** How the route serializes `{ data: InventoryView }`: its response schema's own serializer. */
export type InventorySerializer = (payload: { data: InventoryView }) => string;

/**
 * Prepared seat maps kept per database, most recently used last: up to 16 maps and 250,000 seats in all (a
 * 100,000-seat map is some 16 MB of text fragments), and always the one just used.
 */
const MAX_FRAMES = 16;
const MAX_SEATS = 250_000;
interface Cache { readonly stock: StockRepo; readonly frames: Map<string, Frame> }
const caches = new WeakMap<Db, Cache>();

export function seatMapCache(db: Db): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { stock: createStockRepo(db), frames: new Map() };
    caches.set(db, cache);
  }
  return cache;
}

/**
 * Characters per piece of a streamed answer (~330 seats). V8 allocates a string over 128 kB in its large-object
 * space, which only a full collection frees; pieces well under that are young garbage, collected at once.
 */
const CHUNK_CHARS = 32 * 1024;

/**
 * The `{ "data": InventoryView }` answer as JSON text, with live availability (timed-out carts released first):
 * one string for a seat map of up to CHUNK_CHARS characters, else pieces of about that size in order — an
 * arena's 9 MB answer as one string (and one Buffer) per request would be old-generation garbage that swells
 * the heap.
 */
export function inventoryJson(
  ctx: EngineContext, serialize: InventorySerializer, occurrenceId: string, currency: string | undefined, language: NameLanguage,
): string | Iterable<string> {
  const now = ctx.now();
  const { stock, frames } = seatMapCache(ctx.db);
  // The numbers are read inside the write transaction (timed-out carts are released first); the text is
  // stitched after it commits, so a big seat map holds the write lock only for its one query.
  const [frame, live] = immediate(ctx.db, (): [Frame, Float64Array] => {
    const occurrence = ctx.catalog.occurrence(occurrenceId);
    if (!occurrence) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'occurrenceId' });
    const context = priceContextFor(ctx, locationOf(ctx, occurrence.locationId), currency, now);
    ctx.carts.releaseExpired(now);
    ctx.allocations.lapse(now);
    const { catalog } = stock.versions();
    const key = `${occurrenceId}\n${language}\n${contextKey(context)}`;
    let frame = frames.get(key);
    const live = stock.live(occurrenceId);
    // A frame of an older catalog — or, defensively, one whose item count no longer matches — is rebuilt.
    if (frame?.catalog !== catalog || 2 * frame.rows.length !== live.length) {
      if (frame && frame.catalog !== catalog) frames.clear();
      frame = buildFrame(ctx, serialize, stock, occurrenceId, currency, language, catalog);
    }
    frames.delete(key);
    frames.set(key, frame);
    let seats = 0;
    for (const kept of frames.values()) seats += kept.rows.length;
    for (const [oldestKey, oldest] of frames) {
      if (oldestKey === key || (frames.size <= MAX_FRAMES && seats <= MAX_SEATS)) break;
      frames.delete(oldestKey);
      seats -= oldest.rows.length;
    }
    return [frame, live];
  });
  return frame.length <= CHUNK_CHARS ? [...chunks(frame, live)].join('') : chunks(frame, live);
}

const contextKey = (context: PriceContext) => `${context.currency}\n${context.rate ? `${context.rate.units}e-${context.rate.scale}` : ''}`;

/**
 * The answer's text in pieces of about CHUNK_CHARS characters: `live` holds available and held of each row,
 * alternating (stock.live()). The first piece carries the head of the answer, the last its tail.
 */
function* chunks(frame: Frame, live: Float64Array): Generator<string> {
  const { rows, parts } = frame;
  let out = parts[0] ?? '';
  for (let k = 0; k < rows.length; k++) {
    const row = 2 * (rows[k] ?? 0);
    out += `${live[row] ?? ''}${parts[2 * k + 1] ?? ''}${live[row + 1] ?? ''}${parts[2 * k + 2] ?? ''}`;
    if (out.length >= CHUNK_CHARS && k < rows.length - 1) {
      yield out;
      out = '';
    }
  }
  yield out;
}

// Stand-ins for the numbers while the view is serialized: a JSON string escapes its quotes, so the text
// `"available":-7` can only be the member itself.
const AVAILABLE = -7;
const HELD = -8;
const HOLE = /(?<="available":)-7(?=[,}])|(?<="held":)-8(?=[,}])/g;

/**
 * Serializes the view once, with stand-ins for every item's numbers, through the route's serializer — so the
 * member order and escaping are exactly the serializer's — and cuts the text at the stand-ins.
 */
function buildFrame(
  ctx: EngineContext, serialize: InventorySerializer, stock: StockRepo, occurrenceId: string, currency: string | undefined, language: NameLanguage, catalog: number,
): Frame {
  const view = occurrenceInventory(ctx, occurrenceId, currency, language);
  const rowOf = new Map(stock.ids(occurrenceId).map((id, row) => [id, row]));
  const rows: number[] = [];
  const areas = view.areas.map((area) => ({
    ...area,
    inventoryItems: area.inventoryItems.map((item) => {
      const row = rowOf.get(item.id);
      if (row === undefined) throw new Error(`inventory item ${item.id} has no stock row`);
      rows.push(row);
      return { ...item, available: AVAILABLE, held: HELD };
    }),
  }));
  const parts = serialize({ data: { ...view, areas } }).split(HOLE);
  // available then held, item after item: anything else would put numbers in the wrong places
  const inOrder = parts.length === 2 * rows.length + 1 && parts.every((part, i) => i === parts.length - 1 || part.endsWith(i % 2 === 0 ? '"available":' : '"held":'));
  if (!inOrder) throw new Error('the inventory serializer does not write available before held for each item');
  return { catalog, rows: Uint32Array.from(rows), parts, length: parts.reduce((sum, part) => sum + part.length, 0) };
}
