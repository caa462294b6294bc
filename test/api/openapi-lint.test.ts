import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/**
 * The served OpenAPI document passes Redocly's `recommended` ruleset with zero errors (issue #22): it is
 * fetched from a real engine, written to a temp file and linted by the Redocly CLI installed in the repo,
 * offline (no telemetry, no update check). No warnings either today; any new one is printed and fails.
 */

const run = promisify(execFile);
const REDOCLY = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe('the served OpenAPI document under `redocly lint --extends recommended`', () => {
  let engine: TestEngine;
  let dir: string;
  let report: LintReport;

  beforeAll(async () => {
    engine = await startTestEngine();
    const response = await engine.request('GET', '/openapi.json', { key: null });
    expect(response.status).toBe(200);
    dir = mkdtempSync(join(tmpdir(), 'kassa-openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(response.body, null, 2));
    // cwd is the temp folder: no redocly.yaml of anyone's but the flags applies
    const { stdout } = await run(process.execPath, [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: unknown) => {
      // a lint with errors exits 1 and still prints the report
      if (error instanceof Error && 'stdout' in error && typeof error.stdout === 'string') return { stdout: error.stdout };
      throw error;
    });
    report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
  }, 60_000);
  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has zero errors', () => {
    const errors = report.problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('has no warnings either (printed when there are)', () => {
    const warnings = report.problems.filter((problem) => problem.severity !== 'error').map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}`);
    if (warnings.length > 0) console.info(`redocly lint: ${warnings.length} warning(s)\n  ${warnings.join('\n  ')}`);
    expect(warnings).toEqual([]);
  });
});
