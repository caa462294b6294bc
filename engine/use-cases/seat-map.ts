import { EngineError } from '../domain/errors';
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
  /** the text before the k-th item's `available` number; [0] carries the head of the answer */
  readonly prefixes: readonly string[];
  readonly tail: string;
}

/** Prepared seat maps kept per database; a 100,000-seat frame is some 10 MB, so only the most recent few. */
const MAX_FRAMES = 8;
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

/** The `{ "data": InventoryView }` answer as JSON text, with live availability (timed-out carts released first). */
export function inventoryJson(ctx: EngineContext, occurrenceId: string, currency: string | undefined, language: NameLanguage): string {
  const now = ctx.now();
  const { stock, frames } = seatMapCache(ctx.db);
  return immediate(ctx.db, () => {
    const occurrence = ctx.catalog.occurrence(occurrenceId);
    if (!occurrence) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'occurrenceId' });
    const context = priceContextFor(ctx, locationOf(ctx, occurrence.locationId), currency, now);
    ctx.carts.releaseExpired(now);
    const { catalog } = stock.versions();
    const key = `${occurrenceId}\n${language}\n${contextKey(context)}`;
    let frame = frames.get(key);
    const live = stock.live(occurrenceId);
    // A frame of an older catalog — or, defensively, one whose item count no longer matches — is rebuilt.
    if (frame?.catalog !== catalog || frame.rows.length !== live.length) {
      if (frame && frame.catalog !== catalog) frames.clear();
      frame = buildFrame(ctx, stock, occurrenceId, currency, language, catalog);
    }
    frames.delete(key);
    frames.set(key, frame);
    for (const oldest of frames.keys()) {
      if (frames.size <= MAX_FRAMES) break;
      frames.delete(oldest);
    }
    return stitch(frame, live);
  });
}

const contextKey = (context: PriceContext) => `${context.currency}\n${context.rate ? `${context.rate.units}e-${context.rate.scale}` : ''}`;

function stitch(frame: Frame, live: readonly (readonly [number, number])[]): string {
  const { rows, prefixes } = frame;
  let out = '';
  for (let k = 0; k < rows.length; k++) {
    const row = live[rows[k] ?? 0];
    if (!row) throw new Error('seat map and stock disagree');
    out += `${prefixes[k] ?? ''}${row[0]},"held":${row[1]}`;
  }
  return out + frame.tail;
}

const open = (json: string) => json.slice(0, -1);

function buildFrame(ctx: EngineContext, stock: StockRepo, occurrenceId: string, currency: string | undefined, language: NameLanguage, catalog: number): Frame {
  const view = occurrenceInventory(ctx, occurrenceId, currency, language);
  const rowOf = new Map(stock.ids(occurrenceId).map((id, row) => [id, row]));
  const { occurrenceId: id, eventId, startsAt, onSale, currency: priced, areas, extras } = view;
  // JSON.stringify leaves out undefined members, as the serializer leaves out absent optional ones.
  const prefixes: string[] = [];
  const rows: number[] = [];
  let text = `{"data":${open(JSON.stringify({ occurrenceId: id, eventId, startsAt, onSale, currency: priced }))},"areas":[`;
  areas.forEach(({ inventoryItems, ...area }, a) => {
    text += `${a > 0 ? ',' : ''}${open(JSON.stringify({ id: area.id, name: area.name, seating: area.seating, priceOptions: area.priceOptions }))},"inventoryItems":[`;
    inventoryItems.forEach((item, i) => {
      const row = rowOf.get(item.id);
      if (row === undefined) throw new Error(`inventory item ${item.id} has no stock row`);
      prefixes.push(`${text}${i > 0 ? '},' : ''}${open(JSON.stringify({ id: item.id, label: item.label, capacity: item.capacity }))},"available":`);
      rows.push(row);
      text = '';
    });
    text += `${inventoryItems.length > 0 ? '}' : ''}]}`;
  });
  return { catalog, rows: Uint32Array.from(rows), prefixes, tail: `${text}],"extras":${JSON.stringify(extras)}}}` };
}
