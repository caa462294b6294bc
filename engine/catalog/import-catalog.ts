import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CatalogDocument } from '../contract/catalog';
import { catalogChecks } from '../domain/catalog-rules';
import { importSummary } from './catalog';
import type { Storage } from '../shared/context';

/**
 * A catalog import that keeps the engine answering (PUT /catalog, the sync pull). The document arrives
 * parsed and schema-checked; then, handing the event loop back every SLICE_MS:
 *   1. the rules of catalog-rules.ts are checked in steps — a failure ends the import, nothing written;
 *   2. the inventory items are compared with the stored ones (reads only), giving a plan of the rows that
 *      differ; the rows of occurrences the database has never seen are inserted inactive — invisible —
 *      a batch per short transaction (store/catalog-item-plan.ts);
 * and last, in ONE write transaction, the catalog rows and the planned item rows are written and the staged
 * ones switched on. So the import is all or nothing — a rejected document or a crash leaves the previous
 * catalog as it was for every reader — and other requests are answered between the steps. Two pauses are
 * left: parsing and schema-checking the body before this runs, and the final write (see the README's "Limits").
 *
 * Imports on one engine run one after another, in the order they arrived.
 */

/** longest stretch of import work between two turns of the event loop */
const SLICE_MS = 15;

/** one import at a time per store */
const queues = new WeakMap<Storage['store'], Promise<unknown>>();

export function importCatalogInSlices(ctx: Storage, doc: CatalogDocument): Promise<ReturnType<typeof importSummary>> {
  const previous = queues.get(ctx.store) ?? Promise.resolve();
  const run = previous.then(
    () => sliced(ctx, doc),
    () => sliced(ctx, doc),
  );
  queues.set(ctx.store, run);
  return run;
}

async function sliced(ctx: Storage, doc: CatalogDocument) {
  await inSlices(catalogChecks(doc));
  // the store writes in steps too (a plan, new shows staged inactive, then one transaction)
  const steps = ctx.store.importCatalog(doc);
  for (;;) {
    const started = performance.now();
    let done = false;
    while (!done && performance.now() - started < SLICE_MS) done = (await steps.next()).done === true;
    if (done) break;
    await nextTurn();
  }
  return importSummary(doc);
}

/** Runs `steps` to the end, yielding to the event loop whenever a slice of SLICE_MS is used up. */
async function inSlices<T>(steps: Generator<void, T, undefined>): Promise<T> {
  for (;;) {
    const started = performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (performance.now() - started >= SLICE_MS) break;
    }
    await nextTurn();
  }
}
