import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from '../../../engine/cli/args';

/** `serve`'s options: the upstream key from a file or the environment, never required in argv; the provider deadline. */

const dir = mkdtempSync(join(tmpdir(), 'kassa-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the upstream key', () => {
  it('comes from --upstream-key-file (first line, trimmed), with no warning', () => {
    const file = join(dir, 'key');
    writeFileSync(file, '  kassa_secret_from_file \nsecond line ignored\n');
    const args = parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key-file', file]);
    expect(args.upstream).toMatchObject({ url: 'https://hub.example', key: 'kassa_secret_from_file' });
  });

  it('comes from KASSA_UPSTREAM_KEY, with no warning', () => {
    const args = parseServeArgs(['--upstream', 'https://hub.example'], { KASSA_UPSTREAM_KEY: 'kassa_secret_from_env' });
    expect(args.upstream).toMatchObject({ key: 'kassa_secret_from_env' });
  });

  it('a file wins over the environment', () => {
    const file = join(dir, 'key2');
    writeFileSync(file, 'kassa_file\n');
    const args = parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key-file', file], { KASSA_UPSTREAM_KEY: 'kassa_env' });
    expect(args.upstream?.key).toBe('kassa_file');
  });

  it('--upstream-key is refused with a usage error that names the safe ways and not the key', () => {
    let refused: unknown;
    try {
      parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key', 'kassa_argv'], { KASSA_UPSTREAM_KEY: 'kassa_env' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UsageError);
    const message = refused instanceof Error ? refused.message : '';
    expect(message).toMatch(/^--upstream-key is not accepted/);
    expect(message).toMatch(/process list/);
    expect(message).toMatch(/--upstream-key-file/);
    expect(message).toMatch(/KASSA_UPSTREAM_KEY/);
    expect(message).not.toContain('kassa_argv');
    // refused with a file beside it too, and without --upstream
    const file = join(dir, 'key3');
    writeFileSync(file, 'kassa_file\n');
    expect(() => parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key', 'a', '--upstream-key-file', file])).toThrow(/^--upstream-key is not accepted/);
    expect(() => parseServeArgs(['--upstream-key', 'a'])).toThrow(/^--upstream-key is not accepted/);
  });

  it('clear usage errors: no key, an unreadable or empty file', () => {
    expect(() => parseServeArgs(['--upstream', 'https://hub.example'])).toThrow(/KASSA_UPSTREAM_KEY/);
    expect(() => parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key-file', join(dir, 'missing')])).toThrow(UsageError);
    const empty = join(dir, 'empty');
    writeFileSync(empty, '\n');
    expect(() => parseServeArgs(['--upstream', 'https://hub.example', '--upstream-key-file', empty])).toThrow(/empty/);
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
