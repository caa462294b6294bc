import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LIMITS } from '../../engine/domain/limits';
import { FEST, catalogFile, syncCatalog } from '../sync/harness';
import type { TestEngine } from './engine';

/** Large orders (issue #22): the standing field of the sync catalog in lines of 100, and how responsive the engine stays meanwhile. */

export interface FieldLine {
  occurrenceId: string;
  inventoryItemId: string;
  priceOptionId: string;
  quantity: number;
}

/** `count` tickets of the standing field, in lines of at most 100, adults and children in turn */
export function fieldLines(count: number): FieldLine[] {
  const lines: FieldLine[] = [];
  for (let left = count; left > 0; left -= LIMITS.maxQuantity) {
    const priceOptionId = lines.length % 2 === 0 ? FEST.field.adult : FEST.field.child;
    lines.push({ occurrenceId: FEST.occurrenceId, inventoryItemId: FEST.field.inventoryItemId, priceOptionId, quantity: Math.min(LIMITS.maxQuantity, left) });
  }
  return lines;
}

/** what the lines cost, in euro cents */
export const totalOf = (lines: readonly FieldLine[]): number =>
  lines.reduce((sum, line) => sum + line.quantity * (line.priceOptionId === FEST.field.adult ? FEST.prices.adult : FEST.prices.child), 0);

/** the sync catalog with a field of `capacity` places, as a file the engine starts with */
export function largeFieldCatalog(capacity: number): { path: string; remove: () => void } {
  const doc = syncCatalog();
  const field = doc.events[0]?.occurrences[0]?.areas[0]?.inventoryItems[0];
  if (!field) throw new Error('the sync catalog has no field');
  field.capacity = capacity;
  return catalogFile(doc);
}

export interface Responsiveness {
  /** health answers received while the work ran */
  polls: number;
  /** the longest a health request waited for its answer, ms */
  healthMaxMs: number;
  /** the longest time between two health answers, ms (a poll every ~20 ms) */
  healthGapMs: number;
  /** the event loop's delay while the work ran (monitorEventLoopDelay), ms */
  loopP99Ms: number;
  loopMaxMs: number;
  /** the longest pause a 5 ms interval timer saw, ms */
  timerGapMs: number;
  /**
   * the most CPU time the event loop's thread used within one such pause, ms: what the loop itself worked
   * without giving a turn. Unlike the wall-clock figures it does not grow when the machine is busy with other
   * processes (a pause spent waiting for a core costs no CPU), so it can be held to a tight bound. It is the
   * main thread's own time (Linux: its schedstat), not the process's: the garbage collector's helper threads
   * and libuv's pool work beside the loop and do not hold it (`cpuSource` says which was read).
   */
  cpuInPauseMs: number;
  /** the whole process's CPU time within that same longest pause, all threads, ms (reported, not bounded) */
  processCpuInPauseMs: number;
  cpuSource: 'main thread' | 'process';
  /** how long the work took, ms */
  workMs: number;
}

/** the main thread's schedstat (Linux: nanoseconds on a CPU, exact, this thread only); absent elsewhere */
const MAIN_THREAD_SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

function mainThreadCpuReader(): (() => number) | undefined {
  try {
    const read = () => Number(readFileSync(MAIN_THREAD_SCHEDSTAT, 'latin1').split(' ', 1)[0]) / 1e6;
    return Number.isFinite(read()) ? read : undefined;
  } catch {
    return undefined;
  }
}

const processCpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * Runs `work` while GET /health is polled every ~20 ms and the event loop is watched. The engine of a test
 * runs in the test's own process (startTestEngine), so this loop IS the engine's: what delays it delays
 * every till.
 */
export async function whileResponsive<T>(engine: TestEngine, work: () => Promise<T>): Promise<{ result: T; seen: Responsiveness }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  const threadCpuMs = mainThreadCpuReader();
  const loopCpuMs = threadCpuMs ?? processCpuMs;
  let timerGapMs = 0;
  let cpuInPauseMs = 0;
  let processCpuInPauseMs = 0;
  let lastTick = performance.now();
  let lastLoopCpu = loopCpuMs();
  let lastProcessCpu = processCpuMs();
  const ticker = setInterval(() => {
    const now = performance.now();
    const loopCpu = loopCpuMs();
    const processCpu = processCpuMs();
    timerGapMs = Math.max(timerGapMs, now - lastTick);
    if (loopCpu - lastLoopCpu > cpuInPauseMs) {
      cpuInPauseMs = loopCpu - lastLoopCpu;
      processCpuInPauseMs = processCpu - lastProcessCpu;
    }
    lastTick = now;
    lastLoopCpu = loopCpu;
    lastProcessCpu = processCpu;
  }, 5);
  let polling = true;
  let polls = 0;
  let healthMaxMs = 0;
  let healthGapMs = 0;
  let lastAnswer = performance.now();
  const poller = (async () => {
    while (polling) {
      const sent = performance.now();
      const answer = await fetch(`${engine.url}/api/v3/health`);
      await answer.text();
      const now = performance.now();
      if (answer.status !== 200) throw new Error(`GET /health answered ${answer.status}`);
      polls += 1;
      healthMaxMs = Math.max(healthMaxMs, now - sent);
      healthGapMs = Math.max(healthGapMs, now - lastAnswer);
      lastAnswer = now;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  histogram.enable();
  const started = performance.now();
  try {
    const result = await work();
    const workMs = performance.now() - started;
    // a pause that ended just now is recorded by the watchers' next tick, after the timers phase comes round
    await new Promise((resolve) => setTimeout(resolve, 20));
    return {
      result,
      seen: { polls, healthMaxMs, healthGapMs, loopP99Ms: histogram.percentile(99) / 1e6, loopMaxMs: histogram.max / 1e6, timerGapMs, cpuInPauseMs, processCpuInPauseMs, cpuSource: threadCpuMs ? 'main thread' : 'process', workMs },
    };
  } finally {
    histogram.disable();
    clearInterval(ticker);
    polling = false;
    await poller;
  }
}

/** one line for the test's output: what was measured, to report and to compare with the bounds */
export function describeSeen(label: string, seen: Responsiveness): string {
  const ms = (value: number) => `${Math.round(value)} ms`;
  return `${label}: ${ms(seen.workMs)} of work, ${seen.polls} health answers, longest wait ${ms(seen.healthMaxMs)}, longest gap ${ms(seen.healthGapMs)}; event loop p99 ${ms(seen.loopP99Ms)}, max ${ms(seen.loopMaxMs)}, timer gap ${ms(seen.timerGapMs)}; longest stretch of CPU without a turn ${ms(seen.cpuInPauseMs)} (${seen.cpuSource}; the process's in it ${ms(seen.processCpuInPauseMs)})`;
}
