import { EngineError } from '../domain/errors';
import type { InventoryView } from '../contract/catalog';
import type { NameLanguage } from '../domain/names';
import type { PriceContext } from '../domain/pricing';
import type { Repos, Store, Tx } from '../store/port';
import type { StockVersions } from '../store/stock-repo';
import { fullGc } from './full-gc';
import { inventoryIn } from './catalog';
import type { Clock, Storage, Syncing, TerminalRole } from '../shared/context';
import { locationOf, priceContextFor } from './price-context';

/**
 * GET /occurrences/{id}/inventory at arena scale (issue #16). What a seat map says apart from its numbers —
 * areas, seats, labels, price options, names, extras — changes only with the catalog, so it is serialized
 * once per (occurrence, catalog version, language, currency and rate) into text fragments; the numbers,
 * [available, held] per item, are kept beside them, and a request reads only those that changed since the
 * last (often none: one look at the stock counter), then stitches them between the fragments. The answer
 * is byte for byte what the response schema's serializer makes of occurrenceInventory (catalog/catalog.ts),
 * which stays the single definition of the view and builds the fragments.
 */

interface Frame {
  readonly catalog: number;
  /** for the k-th item of the answer: its row in stock.live() (primary-key order) */
  readonly rows: Uint32Array;
  /**
   * the answer's text without its numbers, one flat string (a 100,000-seat map: 7 MB, where 200,000 strings
   * of its parts took 17 MB), and where its parts start: [before available 0, between available 0 and held 0,
   * before available 1, …, the tail], part i being text[cuts[i], cuts[i + 1])
   */
  readonly text: string;
  readonly cuts: Uint32Array;
  /**
   * The live numbers as last read — available and held of each row of stock.live(), alternating — and the
   * stock counter (stock_clock.stock) they are as of. A request reads only what changed since: nothing when
   * the counter has not moved, else the rows whose stock_version is newer (a third of a full read's cost, and
   * a full read when more rows may have changed than that pays for).
   */
  readonly live: { numbers: Float64Array; seen: number };
  /** row of stock.live() by area id and position, to place changed rows; undefined: always read in full */
  readonly slots: ReadonlyMap<string, Int32Array> | undefined;
  /**
   * copies of the numbers that answers have finished with. An answer streams for longer than V8 keeps an
   * object young, so an array per request (1.6 MB for 100,000 seats) would be old-generation garbage.
   */
  readonly spare: Float64Array[];
}

/** spare arrays kept per seat map: more concurrent answers than this allocate their own */
const MAX_SPARE = 4;

/** How the route serializes `{ data: InventoryView }`: its response schema's own serializer. */
export type InventorySerializer = (payload: { data: InventoryView }) => string;

/**
 * Prepared seat maps kept per database, most recently used last: up to 16 maps and 250,000 seats in all (a
 * 100,000-seat map is some 16 MB of text fragments), and always the one just used.
 */
const MAX_FRAMES = 16;
const MAX_SEATS = 250_000;
type StockRepo = Repos['stock'];
interface Cache { readonly frames: Map<string, Frame> }
const caches = new WeakMap<Store, Cache>();

function seatMapCache(store: Store): Cache {
  let cache = caches.get(store);
  if (!cache) {
    cache = { frames: new Map() };
    caches.set(store, cache);
  }
  return cache;
}

/**
 * Characters per piece of a streamed answer (~330 seats). V8 allocates a string over 128 kB in its large-object
 * space, which only a full collection frees; pieces well under that are young garbage, collected at once.
 */
const CHUNK_CHARS = 32 * 1024;

/** Preparing a seat map of this many seats or more is followed by a full garbage collection (full-gc.ts). */
const COLLECT_AFTER_SEATS = 20_000;

/**
 * The `{ "data": InventoryView }` answer as JSON text, with live availability (timed-out carts released first):
 * one string for a seat map of up to CHUNK_CHARS characters, else pieces of about that size in order — an
 * arena's 9 MB answer as one string (and one Buffer) per request would be old-generation garbage that swells
 * the heap.
 */
export async function inventoryJson(
  ctx: Storage & Clock & Syncing & TerminalRole, serialize: InventorySerializer, occurrenceId: string, currency: string | undefined, language: NameLanguage,
): Promise<string | Iterable<string>> {
  const now = ctx.now();
  const { frames } = seatMapCache(ctx.store);
  // The numbers are read inside the write transaction (timed-out carts are released first); the text is
  // stitched after it commits, so a big seat map holds the write lock only for its one query.
  let built = false;
  const [frame, live] = await ctx.store.transaction(async (tx): Promise<[Frame, Float64Array]> => {
    const occurrence = await tx.catalog.occurrence(occurrenceId);
    if (!occurrence) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'occurrenceId' });
    const context = await priceContextFor(tx, await locationOf(tx, occurrence.locationId), currency, now);
    await tx.carts.releaseExpired(now);
    await tx.allocations.lapse(now);
    const stock = tx.stock;
    const versions = await stock.versions();
    const key = `${occurrenceId}\n${language}\n${contextKey(context)}`;
    let frame = frames.get(key);
    // A frame of an older catalog is rebuilt (and every other frame is of that older catalog too).
    if (frame && frame.catalog !== versions.catalog) frames.clear();
    if (frame?.catalog === versions.catalog) await refresh(frame, stock, occurrenceId, versions.stock);
    else {
      frame = await buildFrame(ctx, tx, serialize, occurrenceId, currency, language, versions, now);
      built = true;
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
    // a copy for this answer, which streams after the transaction while later requests update the frame's
    const { numbers } = frame.live;
    const spare = frame.spare.pop();
    const live = spare?.length === numbers.length ? spare : new Float64Array(numbers.length);
    live.set(numbers);
    return [frame, live];
  });
  if (built && frame.rows.length >= COLLECT_AFTER_SEATS) fullGc();
  return frame.text.length <= CHUNK_CHARS ? [...chunks(frame, live)].join('') : chunks(frame, live);
}

/** Brings a frame's numbers up to stock counter `clock`, reading only what changed where that is cheaper. */
async function refresh(frame: Frame, stock: StockRepo, occurrenceId: string, clock: number): Promise<void> {
  const { live, slots } = frame;
  if (live.seen === clock) return;
  // each change moves the counter by one, so at most clock − seen rows changed
  const few = clock - live.seen <= Math.max(64, live.numbers.length / 16);
  if (!(few && slots && placeChanges(live.numbers, slots, await stock.changedPlaces(occurrenceId, live.seen)))) {
    live.numbers = await stock.live(occurrenceId, live.numbers);
  }
  live.seen = clock;
}

/** Writes changed rows' numbers into `numbers`; false when a row has no known place (then read in full). */
function placeChanges(numbers: Float64Array, slots: ReadonlyMap<string, Int32Array>, changed: readonly [string, number, number, number][]): boolean {
  for (const [areaId, position, available, held] of changed) {
    const row = slots.get(areaId)?.[position] ?? -1;
    if (row < 0 || 2 * row + 1 >= numbers.length) return false;
    numbers[2 * row] = available;
    numbers[2 * row + 1] = held;
  }
  return true;
}

/** The row of stock.live() by area and position; undefined if two active items share a place (never read in part then). */
function slotsOf(places: readonly [string, number][]): Map<string, Int32Array> | undefined {
  const highest = new Map<string, number>();
  for (const [areaId, position] of places) highest.set(areaId, Math.max(highest.get(areaId) ?? 0, position));
  const slots = new Map([...highest].map(([areaId, top]) => [areaId, new Int32Array(top + 1).fill(-1)]));
  for (const [row, [areaId, position]] of places.entries()) {
    const area = slots.get(areaId);
    if (!area || (area[position] ?? -1) >= 0) return undefined;
    area[position] = row;
  }
  return slots;
}

const contextKey = (context: PriceContext) => `${context.currency}\n${context.rate ? `${context.rate.units}e-${context.rate.scale}` : ''}`;

/**
 * The answer's text in pieces of about CHUNK_CHARS characters: `live` holds available and held of each row,
 * alternating (stock.live()). The first piece carries the head of the answer, the last its tail.
 */
function* chunks(frame: Frame, live: Float64Array): Generator<string> {
  const { rows, text, cuts } = frame;
  const part = (i: number) => text.slice(cuts[i], cuts[i + 1]);
  try {
    let out = part(0);
    for (let k = 0; k < rows.length; k++) {
      const row = 2 * (rows[k] ?? 0);
      out += `${live[row] ?? ''}${part(2 * k + 1)}${live[row + 1] ?? ''}${part(2 * k + 2)}`;
      if (out.length >= CHUNK_CHARS && k < rows.length - 1) {
        yield out;
        out = '';
      }
    }
    yield out;
  } finally {
    // answered, or the client went away: the array serves the next answer
    if (frame.spare.length < MAX_SPARE) frame.spare.push(live);
  }
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
async function buildFrame(
  ctx: Syncing & TerminalRole, tx: Tx, serialize: InventorySerializer, occurrenceId: string, currency: string | undefined, language: NameLanguage, versions: StockVersions, now: number,
): Promise<Frame> {
  const stock = tx.stock;
  const view = await inventoryIn(ctx, tx, occurrenceId, currency, language, now);
  const rowOf = new Map((await stock.ids(occurrenceId)).map((id, row) => [id, row]));
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
  const cuts = new Uint32Array(parts.length + 1);
  for (let i = 0; i < parts.length; i++) cuts[i + 1] = (cuts[i] ?? 0) + (parts[i]?.length ?? 0);
  const places = await stock.places(occurrenceId);
  const numbers = await stock.live(occurrenceId);
  if (numbers.length !== 2 * places.length) throw new Error(`the live numbers of ${occurrenceId} do not match its items`);
  return {
    catalog: versions.catalog,
    rows: Uint32Array.from(rows),
    // joined into one new flat string: the parts, slices of the serializer's text, would keep all of it alive
    text: parts.join(''),
    cuts,
    live: { numbers, seen: versions.stock },
    slots: slotsOf(places),
    spare: [],
  };
}
