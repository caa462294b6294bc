import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with what was skipped and why (a skipped suite carries its reason in its name), then one
 * plain line, `tests: N passed, N failed, N skipped`, for CI logs that read it.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const skipped = new Set<string>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else {
          counts.skipped += 1;
          // a skipped suite's reason is in its name; a test skipped on its own (it.skipIf) carries it in its own
          const named = test.parent.type === 'suite' && !test.name.includes('(skipped') ? test.parent.fullName : test.fullName;
          skipped.add(`${module.moduleId.split('/test/').at(-1) ?? module.moduleId}: ${named}`);
        }
      }
    }
    for (const line of skipped) process.stdout.write(`\nskipped: ${line}`);
    process.stdout.write(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
