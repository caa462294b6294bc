import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checksumOf } from '../engine/legacy-v1/http/channel-auth';
import { MASTER_KEY_FILE } from '../engine/store/channel-repo';
import { api, keys, keysWithEnv, lastLine, serve, SLOW, STACK_FRAME, tempDir, useCliCleanup, type Server } from './helpers/cli';
import { createTestDatabase, postgresAvailable, postgresSuite } from './helpers/postgres';

/**
 * `npm run keys -- … --database URL` (contract §16) as real processes against the run's throwaway PostgreSQL:
 * every subcommand works on the database the URL names (a `serve` on that database sees what the CLI did, and the
 * CLI's --data folder gets no SQLite file), KASSA_DATABASE stands in for the flag, a password in the URL is
 * warned about, and the v1 channels' master key file is shared as the hub recipe says (docs/notes-ops.md): a
 * process with a copy of it checks the channel's checksums, one with another key warns at its start and refuses.
 */

useCliCleanup();

/** `serve` from source (`npm run serve:dev`): test/cli.test.ts may be rebuilding the bundle `npm run serve` runs */
const serveDev = (args: string[]) => serve(args, {}, 'serve:dev');

/** the data folder holds no SQLite database: the command went to PostgreSQL */
const noSqlite = (dir: string) => expect(existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('kassa.sqlite')) : []).toEqual([]);

describe.skipIf(!postgresAvailable())(postgresSuite('keys --database postgres://… (every subcommand, through the storage port)'), () => {
  let url = '';
  let data = '';
  const idOf = (line: string | undefined): string => line?.split('\t')[0] ?? '';
  const listed = async (name: string): Promise<string[]> =>
    (await keys('list', '--database', url, '--data', data)).stdout.split('\n').filter((line) => line.split('\t')[1] === name);

  beforeAll(async () => {
    url = await createTestDatabase(); // empty: the first keys command runs the migrations
    data = join(tempDir(), 'data');
  });

  it('create, list, replace and revoke work on the PostgreSQL database, as a serve on it sees', { timeout: 4 * SLOW }, async () => {
    const created = await keys('create', '--database', url, '--data', data, '--name', 'till-1', '--scopes', 'catalog:read,carts:write', '--owner', 'till-1');
    expect(created.code, created.stderr).toBe(0);
    const first = lastLine(created.stdout);
    expect(first).toMatch(/^kassa_\S{32,}$/);
    expect(created.stdout.split(first).length - 1).toBe(1);
    // a key command reads no channel secret: --data is not touched (no SQLite file, no key file, not even the folder)
    expect(existsSync(data)).toBe(false);

    const [line] = await listed('till-1');
    expect(line?.split('\t')).toEqual([expect.stringMatching(/^key_/), 'till-1', 'catalog:read,carts:write', expect.any(String), 'active', 'owner till-1']);

    const server = await serveDev(['--database', url, '--data', tempDir(), '--port', '0', '--no-demo']);
    expect((await api(server, 'GET', '/locations', first)).status).toBe(200);

    const replaced = await keys('replace', idOf(line), '--database', url, '--data', data);
    expect(replaced.code, replaced.stderr).toBe(0);
    const second = lastLine(replaced.stdout);
    expect(replaced.stdout).toContain(`revoked ${idOf(line)}`);
    expect((await api(server, 'GET', '/locations', first)).status).toBe(401);
    expect((await api(server, 'GET', '/locations', second)).status).toBe(200);
    const states = (await listed('till-1')).map((entry) => entry.split('\t').slice(4));
    expect(states).toEqual([[expect.stringMatching(/^revoked /), 'owner till-1'], ['active', 'owner till-1']]);

    const newest = idOf((await listed('till-1'))[1]);
    const revoked = await keys('revoke', newest, '--database', url, '--data', data);
    expect([revoked.code, revoked.stdout]).toEqual([0, `revoked ${newest}\n`]);
    expect((await api(server, 'GET', '/locations', second)).status).toBe(401);

    const unknown = await keys('revoke', 'key_doesnotexist', '--database', url, '--data', data);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'no key key_doesnotexist\n']);
    const noReplacement = await keys('replace', 'key_doesnotexist', '--database', url, '--data', data);
    expect(noReplacement.code).toBe(1);
    const badScope = await keys('create', '--database', url, '--data', data, '--name', 'x', '--scopes', 'superuser');
    expect([badScope.code, badScope.stdout]).toEqual([2, '']);
    expect(await listed('x')).toEqual([]);
    noSqlite(data);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  });

  it('KASSA_DATABASE stands in for --database', { timeout: SLOW }, async () => {
    const made = await keysWithEnv({ KASSA_DATABASE: url }, 'create', '--data', data, '--name', 'from-env', '--scopes', 'orders:read');
    expect(made.code, made.stderr).toBe(0);
    expect(await listed('from-env')).toHaveLength(1);
    noSqlite(data);
  });

  it('a password in the URL works, with a warning that never shows it', { timeout: SLOW }, async () => {
    const withPassword = new URL(url);
    withPassword.password = 'pg_s3cret_4711'; // the test cluster trusts loopback: the password is not checked
    const result = await keys('list', '--database', withPassword.toString(), '--data', data);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('from-env');
    expect(result.stderr).toMatch(/^warning: --database carries a password, which other users of this machine can read in the process list: put it in PGPASSWORD or ~\/\.pgpass instead$/m);
    expect(result.stdout + result.stderr).not.toContain('pg_s3cret_4711');
    // in KASSA_DATABASE it is in no process list: no warning
    const fromEnv = await keysWithEnv({ KASSA_DATABASE: withPassword.toString() }, 'list', '--data', data);
    expect([fromEnv.code, fromEnv.stderr]).toEqual([0, '']);
    expect(fromEnv.stdout).toContain('from-env');
  });
});

describe.skipIf(!postgresAvailable())(postgresSuite('keys --database: v1 channels and the shared master key file'), () => {
  let url = '';
  /** the --data folder the channels are made with: its master key is the hub's */
  let hubData = '';
  let channel = { id: '', secret: '' };

  beforeAll(async () => {
    url = await createTestDatabase({ migrated: true });
    hubData = tempDir();
  });

  /** a signed v1 read of a basket that does not exist: 404 once the checksum matched, 401 when it did not */
  async function v1Status(server: Server): Promise<number> {
    const path = '/api/v1/baskets/nothing-here';
    const response = await fetch(`${server.url}${path}`, { headers: { 'x-channel-id': channel.id, 'x-checksum': checksumOf(channel.secret, 'GET', path, '') } });
    await response.text();
    return response.status;
  }

  it('create-channel, list-channels and revoke-channel work on PostgreSQL; the commands name the key file and its fingerprint', { timeout: 2 * SLOW }, async () => {
    const created = await keys('create-channel', '--database', url, '--data', hubData, '--name', 'web-shop');
    expect(created.code, created.stderr).toBe(0);
    const secret = lastLine(created.stdout);
    const id = /^channelId=(\S+)$/m.exec(created.stdout)?.[1] ?? '';
    channel = { id, secret };
    expect(id).toMatch(/^ch_/);
    expect(created.stderr).toMatch(new RegExp(`^channel secrets derive from ${join(hubData, MASTER_KEY_FILE)} \\(fingerprint [0-9a-f]{12}\\)`, 'm'));
    expect(existsSync(join(hubData, MASTER_KEY_FILE))).toBe(true);
    noSqlite(hubData);

    const other = await keys('create-channel', '--database', url, '--data', hubData, '--name', 'old-shop');
    const otherId = /^channelId=(\S+)$/m.exec(other.stdout)?.[1] ?? '';
    expect((await keys('revoke-channel', otherId, '--database', url, '--data', hubData)).code).toBe(0);
    const list = await keys('list-channels', '--database', url, '--data', hubData);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\tweb-shop\\t\\S+\\tactive$`, 'm'));
    expect(list.stdout).toMatch(new RegExp(`^${otherId}\\told-shop\\t\\S+\\trevoked \\S+$`, 'm'));
    expect((await keys('revoke-channel', 'ch_nothing', '--database', url, '--data', hubData)).code).toBe(1);
  });

  it('an engine whose --data holds a copy of the key file checks the channel; one with another key warns at its start and refuses it', { timeout: 2 * SLOW }, async () => {
    const copied = tempDir();
    copyFileSync(join(hubData, MASTER_KEY_FILE), join(copied, MASTER_KEY_FILE));
    const good = await serveDev(['--database', url, '--data', copied, '--port', '0', '--no-demo']);
    expect(await v1Status(good)).toBe(404);
    expect(good.stderr()).not.toMatch(/made with another/);

    const stranger = tempDir(); // its own key file, made at its start
    const bad = await serveDev(['--database', url, '--data', stranger, '--port', '0', '--no-demo']);
    expect(await v1Status(bad)).toBe(401);
    const warning = bad.stderr().split('\n').find((entry) => entry.includes('made with another'));
    expect(warning, bad.stderr()).toBeDefined();
    expect(warning).toContain(channel.id);
    expect(warning).toContain(MASTER_KEY_FILE);

    // the keys command given that folder says so too, and marks the channel
    const list = await keys('list-channels', '--database', url, '--data', stranger);
    expect(list.stdout).toMatch(new RegExp(`^${channel.id}\\tweb-shop\\t\\S+\\tactive\\tmade with another ${MASTER_KEY_FILE.replace('.', '\\.')}$`, 'm'));
    expect(list.stderr).toMatch(/^warning: 1 live channel\(s\) were made with another channel-master\.key/m);
    for (const server of [good, bad]) {
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
  });
});

describe('keys --database: a bad URL and an unreachable server', () => {
  it('a URL that is not one is a usage error: exit 2, the usage, no stack trace', { timeout: SLOW }, async () => {
    const result = await keys('list', '--database', 'postgres://kassa:pw_hidden@[bad', '--data', tempDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --database: not a valid postgres:\/\/ URL$/m);
    expect(result.stderr).toContain('usage: npm run keys');
    expect(result.stderr).not.toContain('pw_hidden');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('an unreachable server: exit 1 with one line naming the host, never the password', { timeout: SLOW }, async () => {
    const result = await keys('list', '--database', 'postgres://kassa:pw_hidden@127.0.0.1:1/kassa', '--data', tempDir());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot open the PostgreSQL database postgres:\/\/kassa:\*\*\*@127\.0\.0\.1:1\/kassa: .*ECONNREFUSED/m);
    expect(result.stderr).not.toContain('pw_hidden');
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).toBe('');
  });
});
