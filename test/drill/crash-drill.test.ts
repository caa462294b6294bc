import { describe, expect, it } from 'vitest';
import { runCrashDrill } from './crash-drill';

/**
 * The crash drill, small: 5 SIGKILLs at random points of a mixed load, the SQL invariants checked after each
 * restart (test/drill/crash-drill.ts). `npm run drill` runs the full 100.
 */
describe('crash drill', () => {
  it('5 SIGKILLs mid-load: every invariant holds after every restart, and every answered order is still there', async () => {
    const report = await runCrashDrill({ kills: 5 });
    expect(report.violations).toEqual([]);
    expect(report.kills).toBe(5);
    expect(report.ordersSeen).toBeGreaterThan(0);
  }, 180_000);
});
