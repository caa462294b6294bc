import { beforeAll, describe, expect, it } from 'vitest';
import { keys, lastLine, SLOW, tempDir, useCliCleanup } from './helpers/cli';

/**
 * The command line of contract §1 as real processes, part 1 (test/cli.test.ts has `serve`, test/cli-serve-options.test.ts
 * its refusals — three files so the two test workers share them): `keys create|list|revoke|replace`.
 *
 * `keys` runs as `npx tsx engine/cli/keys.ts`. `serve` runs exactly as a user starts it, `npm run serve -- …`:
 * the script execs node, so npm hands SIGTERM and SIGINT straight to the engine. Each server is started in its
 * own process group, which afterEach kills if a test left it running (test/helpers/cli.ts).
 */

useCliCleanup();

describe('keys command', () => {
  let data: string;
  let key = '';
  let keyId = '';
  beforeAll(() => {
    data = tempDir();
  });

  it('create prints the new key alone on the last line of stdout', { timeout: SLOW }, async () => {
    const result = await keys('create', '--data', data, '--name', 'kiosk-1', '--scopes', 'carts:write');
    expect(result.code, result.stderr).toBe(0);
    key = lastLine(result.stdout);
    expect(key).toMatch(/^\S{32,}$/);
    expect(result.stdout.endsWith(`${key}\n`)).toBe(true);
    // shown once: nowhere else in the output
    expect(result.stdout.split(key).length - 1).toBe(1);
    expect(result.stderr).not.toContain(key);
  });

  it('a second create prints a different key', { timeout: SLOW }, async () => {
    const result = await keys('create', '--data', data, '--name', 'kiosk-2', '--scopes', 'catalog:read,carts:write');
    expect(result.code, result.stderr).toBe(0);
    const second = lastLine(result.stdout);
    expect(second).toMatch(/^\S{32,}$/);
    expect(second).not.toBe(key);
  });

  it('list shows the keys with name and scopes, never the key itself', { timeout: SLOW }, async () => {
    const result = await keys('list', '--data', data);
    expect(result.code, result.stderr).toBe(0);
    const line = result.stdout.split('\n').find((candidate) => candidate.includes('kiosk-1'));
    expect(line).toBeDefined();
    expect(line).toContain('carts:write');
    expect(line).not.toMatch(/revoked/);
    expect(result.stdout).toContain('kiosk-2');
    expect(result.stdout).not.toContain(key);
    expect(result.stdout).not.toContain(key.replace(/^[a-z]+_/, ''));
    keyId = line?.trim().split(/\s+/)[0] ?? '';
    expect(keyId).toMatch(/\S/);
  });

  it.each([
    ['an unknown scope', ['--name', 'x', '--scopes', 'carts:write,bogus'], 'bogus'],
    ['only an unknown scope', ['--name', 'x', '--scopes', 'superuser'], 'superuser'],
    ['no scopes', ['--name', 'x'], 'scopes'],
    ['no name', ['--scopes', 'carts:write'], 'name'],
  ])('create with %s exits non-zero, prints no key and stores none', { timeout: SLOW }, async (_label, args, mentioned) => {
    const result = await keys('create', '--data', data, ...args);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toContain(mentioned);
    expect(result.stdout).toBe('');
    const list = await keys('list', '--data', data);
    expect(list.stdout.split('\n').filter((line) => line.trim() !== '')).toHaveLength(2);
  });

  it('revoke of an unknown id exits non-zero', { timeout: SLOW }, async () => {
    const result = await keys('revoke', 'key_doesnotexist', '--data', data);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toContain('key_doesnotexist');
  });

  it('revoke ID marks the key revoked in list', { timeout: SLOW }, async () => {
    const result = await keys('revoke', keyId, '--data', data);
    expect(result.code, result.stderr).toBe(0);
    const list = await keys('list', '--data', data);
    const line = list.stdout.split('\n').find((candidate) => candidate.includes('kiosk-1'));
    expect(line).toMatch(/revoked/);
    expect(list.stdout.split('\n').find((candidate) => candidate.includes('kiosk-2'))).not.toMatch(/revoked/);
  });
});

describe('keys rotation: create --owner, list shows the owner, replace ID', () => {
  let data: string;
  const listed = async (name: string): Promise<string[]> =>
    (await keys('list', '--data', data)).stdout.split('\n').filter((line) => line.split('\t')[1] === name);
  const idOf = (line: string | undefined): string => line?.split('\t')[0] ?? '';
  beforeAll(() => {
    data = tempDir();
  });

  it('a key owns alone by default: list shows its own id as the owner', { timeout: SLOW }, async () => {
    const result = await keys('create', '--data', data, '--name', 'till-1', '--scopes', 'catalog:read,orders:import');
    expect(result.code, result.stderr).toBe(0);
    const [line] = await listed('till-1');
    expect(line?.endsWith(`\tactive\towner ${idOf(line)}`)).toBe(true);
  });

  it('create --owner records that owner, and says so', { timeout: SLOW }, async () => {
    const result = await keys('create', '--data', data, '--name', 'till-2', '--scopes', 'catalog:read', '--owner', 'till-2');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('owner till-2');
    expect(await listed('till-2')).toEqual([expect.stringMatching(/\tactive\towner till-2$/)]);
  });

  it.each([['kiosk'], ['box-office'], ['']])("create --owner '%s' (the engine's own roles, or empty) exits non-zero and stores no key", { timeout: SLOW }, async (owner) => {
    const result = await keys('create', '--data', data, '--name', 'taken', '--scopes', 'orders:read', '--owner', owner);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(await listed('taken')).toEqual([]);
  });

  it("replace ID prints a new key alone on the last line, with the old key's name, scopes and owner, and revokes the old one", { timeout: SLOW }, async () => {
    const oldId = idOf((await listed('till-1'))[0]);
    const result = await keys('replace', oldId, '--data', data);
    expect(result.code, result.stderr).toBe(0);
    const key = lastLine(result.stdout);
    expect(key).toMatch(/^\S{32,}$/);
    expect(result.stdout.endsWith(`${key}\n`)).toBe(true);
    expect(result.stdout.split(key).length - 1).toBe(1);
    expect(result.stdout).toContain(`revoked ${oldId}`);
    const [old, replacement] = (await listed('till-1')).map((line) => line.split('\t'));
    expect(old).toEqual([oldId, 'till-1', 'catalog:read,orders:import', expect.any(String), expect.stringMatching(/^revoked /), `owner ${oldId}`]);
    expect(replacement).toEqual([expect.stringMatching(/^key_/), 'till-1', 'catalog:read,orders:import', expect.any(String), 'active', `owner ${oldId}`]);
    expect(replacement?.[0]).not.toBe(oldId);
  });

  it('replace keeps an owner given with --owner', { timeout: SLOW }, async () => {
    const result = await keys('replace', idOf((await listed('till-2'))[0]), '--data', data);
    expect(result.code, result.stderr).toBe(0);
    const states = (await listed('till-2')).map((line) => line.split('\t').slice(4));
    expect(states).toEqual([[expect.stringMatching(/^revoked /), 'owner till-2'], ['active', 'owner till-2']]);
  });

  it('replace of an unknown id exits non-zero and makes no key', { timeout: SLOW }, async () => {
    const before = (await keys('list', '--data', data)).stdout;
    const result = await keys('replace', 'key_doesnotexist', '--data', data);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('key_doesnotexist');
    expect(result.stdout).toBe('');
    expect((await keys('list', '--data', data)).stdout).toBe(before);
  });
});
