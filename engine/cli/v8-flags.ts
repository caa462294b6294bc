/**
 * How the engine's process sets V8's heap and threads (issue #16: peak RSS under load below 150 MB). By default
 * V8 lets the old generation grow to a multiple of what is live before a full collection, and the young
 * generation to 2 × 16 MB: under load the engine's heap reached 90–115 MB for some 35 MB of live objects, and its
 * RSS 190–200 MB. Now the old generation grows by 20 % over what is live before it is collected, and the young
 * generation by at most 2 × 4 MB; and V8 keeps one helper thread instead of four — on a 2-core till they only
 * took turns, and each kept a malloc arena of its own (the optimizing compiler's and the marker's scratch
 * memory). Measured with `npm run bench`'s loads (bench/load.mjs, 50 connections): peak RSS 142–147 MB with the
 * 8 MB young generation and four helpers, 113–126 MB with these, and no more CPU per answer (0.45–0.50 ms per
 * new cart, 0.89–0.94 ms per request of a whole sale, against 0.49–0.50 and 1.00). A limit, not a cap: a seat
 * map of 100,000 seats still gets the memory it needs.
 *
 * Given on the command line of every process that runs the engine — `npm run serve` (package.json), `npm
 * start`'s headless fallback (electron/launch.ts), the benchmark (bench/run.ts) — since V8 reads the young
 * generation's size when the heap is set up and Node starts its helper threads before any code runs. The desktop
 * app passes the V8 flags as Chromium's `js-flags` (electron/main.ts); the thread pool is Node's own option,
 * which Electron does not take, so there V8 keeps Chromium's. test/cli.test.ts checks what package.json says
 * and that V8 and Node take it.
 */
export const ENGINE_V8_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=20'] as const;
/** Node's own options for the engine's process (not V8's, so not for Electron's js-flags) */
export const ENGINE_NODE_FLAGS = ['--v8-pool-size=1'] as const;
/** everything the engine's node process is started with, before the script */
export const ENGINE_PROCESS_FLAGS = [...ENGINE_NODE_FLAGS, ...ENGINE_V8_FLAGS] as const;
