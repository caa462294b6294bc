/**
 * Long work in short slices (issue #22, large orders). The engine answers every till from one event loop, so
 * nothing synchronous may hold it for long: rendering a thousand tickets (ESC/POS, PDF, the system printer's
 * page) or importing a hub batch of large orders runs as a loop that, once a slice has taken `SLICE_MS`,
 * gives the loop a turn (`setImmediate`: requests, timers and I/O waiting in the meantime run) before it goes
 * on. A slice ends after the item that crossed the budget, so the longest pause is the budget plus one item:
 * one ticket (~1–15 ms) or one order of at most LIMITS.maxTicketsPerOrder tickets (~20–40 ms).
 */

/** how long one slice may run before the loop gets a turn */
export const SLICE_MS = 15;

/** A turn of the event loop: what waits for I/O or a timer runs before the caller goes on. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock for one piece of work: `breathe()` after each item gives the loop a turn when the slice is used up
 * (and answers at once otherwise, without a turn, so short work stays as fast as it was).
 */
export function slices(budgetMs: number = SLICE_MS): { breathe(): Promise<void> | undefined } {
  let started = performance.now();
  return {
    breathe() {
      if (performance.now() - started < budgetMs) return undefined;
      return nextTurn().then(() => {
        started = performance.now();
      });
    },
  };
}

/** `work` on each item in order, in slices; answers the results in the same order. */
export async function mapInSlices<T, R>(items: readonly T[], work: (item: T, index: number) => R, budgetMs: number = SLICE_MS): Promise<R[]> {
  const clock = slices(budgetMs);
  const results: R[] = [];
  for (const [index, item] of items.entries()) {
    results.push(work(item, index));
    await clock.breathe();
  }
  return results;
}
