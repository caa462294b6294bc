import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { baseUrl, createTestDatabase, postgresAvailable, postgresSuite } from './helpers/postgres';
import { collect, killGroup, ROOT, running, SLOW, STACK_FRAME, tempDir, untilListening, useCliCleanup, type Finished } from './helpers/cli';

/**
 * The command line of contract §1 as real processes, part 3 (test/cli.test.ts has `serve`, test/cli-keys.test.ts the
 * keys command): `serve --upstream-key`, clear failures for bad options, bad catalog files and bad database URLs.
 *
 * `keys` runs as `npx tsx engine/cli/keys.ts`. `serve` runs exactly as a user starts it, `npm run serve -- …`:
 * the script execs node, so npm hands SIGTERM and SIGINT straight to the engine. Each server is started in its
 * own process group, which afterEach kills if a test left it running (test/helpers/cli.ts).
 */

useCliCleanup();

describe('serve given --upstream-key KEY (contract §1 names it; a file or the environment is the safe way)', () => {
  it('starts as a terminal, warns without the key, and hides the key from the process list', { timeout: SLOW }, async () => {
    const secret = 'kassa_argv_secret_4711';
    // node itself, not `npm run serve`: npm and its shell would keep the key in their own command lines
    const child = spawn(process.execPath, ['dist/engine/serve.mjs', '--port', '0', '--data', tempDir(), '--no-demo', '--upstream', 'http://127.0.0.1:9', '--upstream-key', secret], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const { out, exited } = collect(child);
    await untilListening(child, out);
    const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
    expect(commandLine).toContain('kassa-serve');
    expect(commandLine).toContain('--upstream-key ***');
    expect(commandLine).not.toContain(secret);
    expect(out.stderr).toMatch(/--upstream-key puts the key in the process list/);
    expect(out.stdout).toMatch(/^sync: upstream http:\/\/127\.0\.0\.1:9$/m);
    child.kill('SIGTERM');
    const finished = await exited;
    expect(finished.code).toBe(0);
    expect(finished.stdout + finished.stderr).not.toContain(secret);
  });
});

describe('serve refuses bad options and bad catalogs', () => {
  /** runs serve expecting it to fail before listening */
  async function failing(args: string[]): Promise<Finished> {
    const child = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const timer = setTimeout(() => killGroup(child), 30_000);
    const finished = await collect(child).exited;
    clearTimeout(timer);
    expect(finished.stdout).not.toMatch(/listening on/);
    expect(finished.code).not.toBe(0);
    expect(finished.code).not.toBeNull();
    return finished;
  }

  it.each([
    [['--port', 'abc'], ['--port', 'abc']],
    [['--port', '70000'], ['--port', '70000']],
    [['--port', '1.5'], ['--port', '1.5']],
    [['--hold-seconds', 'abc'], ['--hold-seconds', 'abc']],
    [['--hold-seconds', '0'], ['--hold-seconds']],
    [['--rate-limit', '-'], ['--rate-limit']],
  ])('%j exits non-zero with a one-line message naming the option and value', { timeout: SLOW }, async (args, mentioned) => {
    const result = await failing(['--data', tempDir(), ...args]);
    for (const text of mentioned) expect(result.stderr).toContain(text);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it.each([[['--bogus']], [['--port']]])('%j (unknown option / missing value) exits non-zero with a clear message, no stack trace', { timeout: SLOW }, async (args) => {
    const result = await failing(['--data', tempDir(), ...args]);
    expect(result.stderr).toContain(args[0]);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a catalog that breaks the schema: exits non-zero naming the file and the field', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ locations: [{ id: 'hall', name: 'Hall', currencies: ['EUR'] }], events: [{ id: 'e1', name: 'E', locationId: 'hall', occurrences: [] }] }));
    const result = await failing(['--data', join(dir, 'data'), '--catalog', file]);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(/events\/0|events\[0\]/);
    expect(result.stderr).toContain('kind');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a catalog that is not JSON: exits non-zero naming the file', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"locations": [');
    const result = await failing(['--data', join(dir, 'data'), '--catalog', file]);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(/JSON/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a catalog file that does not exist: exits non-zero naming it', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'missing.json');
    const result = await failing(['--data', join(dir, 'data'), '--catalog', file]);
    expect(result.stderr).toContain(file);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a catalog whose event names an unknown location: exits non-zero naming the field and the problem', { timeout: SLOW }, async () => {
    const dir = tempDir();
    const file = join(dir, 'dangling.json');
    writeFileSync(file, JSON.stringify({ locations: [], events: [{ id: 'e1', name: 'E', locationId: 'nowhere', kind: 'ticket', occurrences: [] }] }));
    const result = await failing(['--data', join(dir, 'data'), '--catalog', file]);
    expect(result.stderr).toContain('events[0].locationId');
    expect(result.stderr).toMatch(/unknown_location|INVALID_FIELD_VALUE/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('serve --database: a bad URL, an unreachable server, a password that never shows', () => {
  async function failing(args: string[]): Promise<Finished> {
    const child = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', '--data', tempDir(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const timer = setTimeout(() => killGroup(child), 30_000);
    const finished = await collect(child).exited;
    clearTimeout(timer);
    expect(finished.stdout).not.toMatch(/listening on/);
    return finished;
  }

  it.each([
    ['postgres://kassa:pw_hidden@[bad/kassa', 'error: --database: not a valid postgres:// URL'],
    ['mysql://kassa:pw_hidden@db/kassa', 'error: --database takes sqlite: or a postgres://user@host:port/db URL'],
  ])('%s is a usage error: exit 1 with one line, as --port abc, no stack trace, no password', { timeout: SLOW }, async (url, message) => {
    const result = await failing(['--database', url]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(message);
    expect(result.stderr).not.toContain('pw_hidden');
  });

  it('KASSA_DATABASE with a bad URL fails the same way', { timeout: SLOW }, async () => {
    const child = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', '--data', tempDir()], { cwd: ROOT, env: { ...process.env, KASSA_DATABASE: 'postgres://kassa:pw_hidden@[bad' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const result = await collect(child).exited;
    expect([result.code, result.stderr.trim()]).toEqual([1, 'error: --database: not a valid postgres:// URL']);
  });

  it('an unreachable server fails the start: exit 1, one line naming the host and port, never the password', { timeout: SLOW }, async () => {
    const result = await failing(['--database', 'postgres://kassa:pw_hidden@127.0.0.1:1/kassa']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot open the PostgreSQL database postgres:\/\/kassa:\*\*\*@127\.0\.0\.1:1\/kassa: connect ECONNREFUSED 127\.0\.0\.1:1$/m);
    expect(result.stdout + result.stderr).not.toContain('pw_hidden');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('a host that does not resolve is named too', { timeout: SLOW }, async () => {
    const result = await failing(['--database', 'postgres://kassa:pw_hidden@no-such-host.invalid/kassa']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot open the PostgreSQL database postgres:\/\/kassa:\*\*\*@no-such-host\.invalid\/kassa: .*no-such-host\.invalid/m);
    expect(result.stdout + result.stderr).not.toContain('pw_hidden');
  });

  it.skipIf(!postgresAvailable())(postgresSuite('a password in the URL: the process runs, warns, and the password is in no log line, no readiness line, not in its process title, not in the pool\'s warnings'), { timeout: 2 * SLOW }, async () => {
    const url = new URL(await createTestDatabase({ migrated: true }));
    url.password = 'pg_s3cret_4711'; // the test cluster trusts loopback: the password is not checked
    // node itself, not `npm run serve`: npm and its shell keep their own command lines
    const child = spawn(process.execPath, ['--import', 'tsx', 'engine/cli/serve.ts', '--port', '0', '--data', tempDir(), '--no-demo', '--log-level', 'trace', '--database', url.toString()], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const { out, exited } = collect(child);
    await untilListening(child, out);
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).not.toContain('pg_s3cret_4711');
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).toContain(`--database postgres://postgres:***@${url.host}${url.pathname}`);
    expect(out.stdout).toMatch(new RegExp(`^database: postgres://postgres:\\*\\*\\*@${url.host}${url.pathname}$`, 'm'));
    expect(out.stderr).toMatch(/--database carries a password/);
    const base = /^listening on (\S+)$/m.exec(out.stdout)?.[1] ?? '';
    expect((await fetch(`${base}/api/v3/health`)).status).toBe(200);

    // the server ends the pool's sessions (as a PostgreSQL restart would): the pool's warning names the database
    const admin = new pg.Client({ connectionString: baseUrl() });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [url.pathname.slice(1)]);
    } finally {
      await admin.end();
    }
    for (let waited = 0; !out.stderr.includes('a connection failed'); waited += 50) {
      if (waited > 10_000) throw new Error(`no warning of the lost connections:\n${out.stderr}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    expect(out.stderr).toContain(`PostgreSQL postgres://postgres:***@${url.host}${url.pathname}: a connection failed`);
    // the pool opens new ones: health answers again (at once, or after a 503 while a dropped session was tried)
    let status = 0;
    for (let tries = 0; status !== 200 && tries < 50; tries += 1) {
      status = (await fetch(`${base}/api/v3/health`)).status;
      if (status !== 200) await new Promise((done) => setTimeout(done, 100));
    }
    expect(status).toBe(200);
    child.kill('SIGTERM');
    const finished = await exited;
    expect(finished.code).toBe(0);
    expect(finished.stdout + finished.stderr).not.toContain('pg_s3cret_4711');
    expect(finished.stdout + finished.stderr).not.toContain(encodeURIComponent('pg_s3cret_4711'));
  });
});
