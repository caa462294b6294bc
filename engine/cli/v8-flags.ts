/**
 * How the engine's process sets V8's heap (issue #16: peak RSS under load below 150 MB). By default V8 lets
 * the old generation grow to a multiple of what is live before a full collection, and the young generation
 * to 2 × 16 MB: under load the engine's heap reached 90–115 MB for some 35 MB of live objects, and its RSS
 * 190–200 MB. The old generation now grows by 20 % over what is live before it is collected, and the young
 * generation by at most 2 × 8 MB: 125–145 MB under the bench's loads, for a few percent more CPU per answer
 * (more, shorter collections). A limit, not a cap: a seat map of 100,000 seats still gets the memory it needs.
 *
 * Given on the command line of every process that runs the engine — `npm run serve` (package.json), the
 * benchmark (bench/run.ts), the desktop app (electron/main.ts, as Chromium's `js-flags`) — since V8 reads
 * the young generation's size when the heap is set up. test/cli.test.ts checks that package.json says the same.
 */
export const ENGINE_V8_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=20'] as const;
