import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronBinary } from '../../electron/runtime';

/**
 * `npm start` (contract §1): where the Electron runtime cannot be obtained it says so in one line and serves
 * the same app headless. Where the runtime exists, the desktop test (app.test.ts) covers `npm start`.
 */
const runtime = electronBinary();
const dataDir = mkdtempSync(join(tmpdir(), 'kassa-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.skipIf('path' in runtime)('npm start without the Electron runtime', () => {
  it('prints one line saying so, then serves the app headless, and stops on SIGTERM', { timeout: 90_000 }, async () => {
    const child = spawn('npm', ['start', '-s', '--', '--port', '0', '--data', dataDir], { cwd: join(import.meta.dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${stdout}`)), 80_000);
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/\S+)\nui: /.exec(stdout);
        if (match?.[1] && stdout.includes('/\n', stdout.indexOf('ui: '))) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Desktop app unavailable: .+; serving the same app headless instead\.$/);
    expect(lines.filter((line) => line.startsWith('Desktop app unavailable'))).toHaveLength(1);
    expect(stdout).toMatch(/^ui: http:\/\/127\.0\.0\.1:\d+\/$/m);
    expect((await fetch(`${url}/api/v3/health`)).status).toBe(200);
    expect((await fetch(`${url}/`)).headers.get('content-type')).toMatch(/^text\/html/);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
