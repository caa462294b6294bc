import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Electronegativity, the static scanner Electron's security checklist names, over electron/. It exits 0
 * even when it finds something, so the test reads its report: no HIGH (or worse) finding may stand.
 */
const ROOT = join(import.meta.dirname, '..', '..');

interface Finding {
  issue: string;
  severity: string;
  file: string;
  location: string;
}

function parseCsv(text: string): Finding[] {
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const cells = [...line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].map((match) => match[2] ?? match[1] ?? '');
      return { issue: cells[0] ?? '', severity: cells[1] ?? '', file: cells[3] ?? '', location: cells[4] ?? '' };
    });
}

describe('Electronegativity scan of the main process', () => {
  it('finds no high-severity issue', { timeout: 120_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-eneg-'));
    try {
      const report = join(dir, 'report.csv');
      const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'electronegativity'), ['-i', 'electron', '-o', report, '-r', '-e', '45.0.0'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 110_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const findings = parseCsv(readFileSync(report, 'utf8'));
      // The scan did read the window code (it always reports the preload review there).
      expect(findings.some((finding) => finding.file === 'window.ts')).toBe(true);
      const high = findings.filter((finding) => finding.severity === 'HIGH' || finding.severity === 'CRITICAL');
      expect(high).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
