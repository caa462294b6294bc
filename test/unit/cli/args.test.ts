import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, titleWithoutKey, UsageError } from '../../../engine/cli/args';

/** `serve`'s options: the upstream key from a file or the environment, never required in argv; the provider deadline. */

const dir = mkdtempSync(join(tmpdir(), 'kassa-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the upstream key', () => {
  it('comes from --upstream-key-file (first line, trimmed), with no warning', () => {
    const file = join(dir, 'key');
    writeFileSync(file, '  kassa_secret_from_file \nsecond line ignored\n');
    const args = parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key-file', file]);
    expect(args.upstream).toMatchObject({ url: 'https://hub.example', key: 'kassa_secret_from_file' });
    expect(args.warnings).toEqual([]);
  });

  it('comes from KASSA_UPSTREAM_KEY, with no warning', () => {
    const args = parseServeArgs(['--upstream', 'https://hub.example'], { KASSA_UPSTREAM_KEY: 'kassa_secret_from_env' });
    expect(args.upstream).toMatchObject({ key: 'kassa_secret_from_env' });
    expect(args.warnings).toEqual([]);
  });

  it('a file wins over the environment', () => {
    const file = join(dir, 'key2');
    writeFileSync(file, 'kassa_file\n');
    const args = parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key-file', file], { KASSA_UPSTREAM_KEY: 'kassa_env' });
    expect(args.upstream?.key).toBe('kassa_file');
  });

  it('--upstream-key still works for old scripts, with a warning that names the safe ways', () => {
    const args = parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key', 'kassa_argv']);
    expect(args.upstream?.key).toBe('kassa_argv');
    expect(args.warnings).toHaveLength(1);
    expect(args.warnings[0]).toMatch(/process list/);
    expect(args.warnings[0]).toMatch(/--upstream-key-file/);
    expect(args.warnings[0]).toMatch(/KASSA_UPSTREAM_KEY/);
    expect(args.warnings[0]).not.toContain('kassa_argv');
  });

  it('clear usage errors: no key, an unreadable or empty file, two sources on the command line', () => {
    expect(() => parseServeArgs(['--upstream', 'https://hub.example'])).toThrow(/KASSA_UPSTREAM_KEY/);
    expect(() => parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key-file', join(dir, 'missing')])).toThrow(UsageError);
    const empty = join(dir, 'empty');
    writeFileSync(empty, '\n');
    expect(() => parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key-file', empty])).toThrow(/empty/);
    expect(() => parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key', 'a', '--upstream-key-file', empty])).toThrow(/exclude/);
  });

  it('a key in the environment without --upstream leaves the engine standalone', () => {
    expect(parseServeArgs([], { KASSA_UPSTREAM_KEY: 'kassa_env' }).upstream).toBeUndefined();
  });
});

describe('--payment-deadline-seconds', () => {
  it('defaults to 30 s and takes 1–600', () => {
    expect(parseServeArgs([]).paymentDeadlineMs).toBe(30_000);
    expect(parseServeArgs(['--payment-deadline-seconds', '5']).paymentDeadlineMs).toBe(5_000);
    expect(() => parseServeArgs(['--payment-deadline-seconds', '0'])).toThrow(UsageError);
  });
});

describe('the process title of a serve given --upstream-key', () => {
  it('shows the command line with the key as ***, in both spellings', () => {
    expect(titleWithoutKey(['--upstream', 'http://hub', '--upstream-key', 'kassa_s3cret', '--port', '0'])).toBe('kassa-serve --upstream http://hub --upstream-key *** --port 0');
    expect(titleWithoutKey(['--upstream-key=kassa_s3cret'])).toBe('kassa-serve --upstream-key=***');
  });

  it('leaves the title alone when no key is on the command line', () => {
    expect(titleWithoutKey(['--upstream', 'http://hub', '--upstream-key-file', '/etc/kassa/key'])).toBeUndefined();
    expect(titleWithoutKey(['--database', 'postgres://kassa@db.example:5432/kassa'])).toBeUndefined();
  });

  it('shows a --database URL with its password as ***, in both spellings', () => {
    expect(titleWithoutKey(['--database', 'postgres://kassa:pg_s3cret@db.example:5432/kassa', '--port', '8801'])).toBe('kassa-serve --database postgres://kassa:***@db.example:5432/kassa --port 8801');
    expect(titleWithoutKey(['--database=postgresql://kassa:pg_s3cret@db.example/kassa'])).toBe('kassa-serve --database=postgresql://kassa:***@db.example/kassa');
  });
});

describe('--database and KASSA_DATABASE', () => {
  it('warns of a password on the command line, not of one in the environment', () => {
    expect(parseServeArgs(['--database', 'postgres://kassa:pw@db/kassa']).warnings).toEqual([expect.stringMatching(/^--database carries a password/)]);
    expect(parseServeArgs([], { KASSA_DATABASE: 'postgres://kassa:pw@db/kassa' })).toMatchObject({ database: 'postgres://kassa:pw@db/kassa', warnings: [] });
    expect(parseServeArgs(['--database', 'postgres://kassa@db/kassa'], { KASSA_DATABASE: 'postgres://other:pw@db/kassa' })).toMatchObject({ database: 'postgres://kassa@db/kassa', warnings: [] });
  });

  it('a malformed URL is a usage error, whichever way it comes', () => {
    expect(() => parseServeArgs(['--database', 'postgres://kassa:pw@[bad'])).toThrow(UsageError);
    expect(() => parseServeArgs([], { KASSA_DATABASE: 'mysql://db/kassa' })).toThrow(UsageError);
  });
});
