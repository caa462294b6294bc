import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isScope, SCOPES, type Scope } from '../domain/scopes';
import { channelsOfAnotherKey, loadMasterKey, MASTER_KEY_FILE, masterKeyFingerprint } from '../store/channel-repo';
import { DatabaseOpenError, openStore, parseDatabaseUrl } from '../store/open';
import type { Store } from '../store/port';
import { STAFF_OWNER } from '../staff/sessions';
import { rotateTicketKey } from '../tickets/rotate';
import { DATABASE_ENV, databaseOf, strictParse, UsageError } from './args';

/** The owners the engine's own keys share (the kiosk page's, engine/start.ts; staff sessions'): not for `--owner`. */
const ROLE_OWNERS = ['kiosk', STAFF_OWNER];

/**
 * `npm run keys -- create --data DIR --name NAME --scopes a,b [--owner OWNER]` prints the new key alone on the last
 * line of stdout (it is shown once and stored only as a hash); `keys list`; `keys revoke ID`; `keys replace ID`
 * makes a new key with the old one's name, scopes and owner, prints it like `create` and revokes the old one
 * (rotation: the orders the old key made stay the new key's — a terminal's at a hub, docs/security.md).
 * `rotate-ticket-key` makes a new key pair the engine signs its tickets with (issue #26) and prints its key id alone;
 * the earlier keys stay, so tickets they signed still verify; running engine processes sign with it from their next
 * start. Channels of the legacy v1 interface (contract §11): `create-channel --name NAME` prints `channelId=…` and
 * `secret=…`, the secret alone on the last line; `list-channels`; `revoke-channel ID`.
 *
 * Every command works on the database `--database URL` (or KASSA_DATABASE) names, as `serve` does: SQLite in
 * `--data` by default, or PostgreSQL (contract §16), through the storage port. Channel secrets derive from the
 * master key file in `--data` (store/channel-repo.ts); on PostgreSQL that file must be the one every engine
 * process of the hub has, so the channel commands name its fingerprint and flag channels made with another.
 */
const USAGE = `usage: npm run keys -- create --name NAME --scopes ${SCOPES.join(',')} [--owner OWNER] [--data DIR] [--database URL]
       npm run keys -- list [--data DIR] [--database URL]
       npm run keys -- revoke ID [--data DIR] [--database URL]
       npm run keys -- replace ID [--data DIR] [--database URL]
       npm run keys -- create-channel --name NAME [--data DIR] [--database URL]
       npm run keys -- list-channels [--data DIR] [--database URL]
       npm run keys -- revoke-channel ID [--data DIR] [--database URL]
       npm run keys -- rotate-ticket-key [--data DIR] [--database URL]
--database: sqlite: (default, kassa.sqlite in --data) or postgres://user@host:port/db; default $${DATABASE_ENV}`;

const CHANNEL_COMMANDS = ['create-channel', 'list-channels', 'revoke-channel'];

interface Command {
  readonly command: string | undefined;
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly scopes: string | undefined;
  readonly owner: string | undefined;
}

async function main(): Promise<number> {
  const { values, positionals } = strictParse({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      data: { type: 'string', default: './data' },
      database: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      owner: { type: 'string' },
    },
  });
  const warnings: string[] = [];
  const { database } = databaseOf(values.database, process.env[DATABASE_ENV], warnings);
  for (const warning of warnings) console.error(`warning: ${warning}`);
  const [command, id] = positionals;
  const args: Command = { command, id, name: values.name, scopes: values.scopes, owner: values.owner };
  const channels = command !== undefined && CHANNEL_COMMANDS.includes(command);
  // Only the channel commands derive a secret: the others neither read nor make the data folder's key file (a key
  // of this run stands in, never used), so a key command against PostgreSQL does not touch --data at all.
  if (channels) mkdirSync(values.data, { recursive: true });
  const masterKey = channels ? loadMasterKey(values.data) : randomBytes(32);
  const store = await openStore(database, { dataDir: values.data, masterKey, groupCommit: false });
  try {
    if (!channels) return await keyCommand(store, args);
    const onPostgres = parseDatabaseUrl(database).kind === 'postgres';
    return await channelCommand(store, args, onPostgres ? { file: join(values.data, MASTER_KEY_FILE), fingerprint: masterKeyFingerprint(masterKey) } : undefined);
  } finally {
    await store.close();
  }
}

async function keyCommand(store: Store, { command, id, name, scopes: scopeList, owner: ownerText }: Command): Promise<number> {
  const keys = store.repos.keys;
  if (command === 'create') {
    const scopes = (scopeList ?? '').split(',').map((scope) => scope.trim()).filter(Boolean);
    const unknown = scopes.filter((scope) => !isScope(scope));
    const owner = ownerText?.trim();
    if (owner !== undefined && ROLE_OWNERS.includes(owner)) {
      console.error(`owner ${owner} is the engine's own (${ROLE_OWNERS.join(', ')}): choose another, e.g. the terminal's name`);
      return 2;
    }
    if (!name || scopes.length === 0 || unknown.length > 0 || owner === '') {
      console.error(unknown.length > 0 ? `unknown scope: ${unknown.join(', ')} (known: ${SCOPES.join(', ')})` : USAGE);
      return 2;
    }
    const created = await keys.create(name, scopes.filter((scope): scope is Scope => isScope(scope)), owner === undefined ? {} : { owner });
    console.log(`created ${created.id} "${name}" with scopes ${scopes.join(',')}, owner ${owner ?? created.id}; the key is shown once:`);
    console.log(created.key);
    return 0;
  }
  if (command === 'list') {
    for (const key of await keys.list()) {
      const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
      console.log([key.id, key.name, key.scopes.join(','), key.createdAt, state, `owner ${key.owner}`].join('\t'));
    }
    return 0;
  }
  if (command === 'rotate-ticket-key' && id === undefined) {
    console.log(await rotateTicketKey({ store }, Date.now()));
    return 0;
  }
  if (command === 'replace' && id) {
    // one transaction: on PostgreSQL the old key's row is locked, so two replacements of one key run one after the other
    const created = await store.transaction((tx) => tx.keys.replace(id));
    if (!created) {
      console.error(`no key ${id}`);
      return 1;
    }
    console.log(`created ${created.id} "${created.name}" with scopes ${created.scopes.join(',')}, owner ${created.owner}; revoked ${id}; the key is shown once:`);
    console.log(created.key);
    return 0;
  }
  if (command === 'revoke' && id) {
    if (!(await keys.revoke(id))) {
      console.error(`no key ${id}`);
      return 1;
    }
    console.log(`revoked ${id}`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

/**
 * The v1 channels. `shared` (PostgreSQL): the master key file every engine process of the hub must have a copy
 * of; the commands say which one they used (on stderr) and warn of live channels made with another.
 */
async function channelCommand(store: Store, { command, id, name }: Command, shared: { file: string; fingerprint: string } | undefined): Promise<number> {
  const channels = store.repos.channels;
  const foreign = new Set(await channelsOfAnotherKey(channels));
  if (shared) console.error(`channel secrets derive from ${shared.file} (fingerprint ${shared.fingerprint}): every engine process of this database needs a copy of that file`);
  if (foreign.size > 0) {
    console.error(`warning: ${foreign.size} live channel(s) were made with another ${MASTER_KEY_FILE} than this --data folder's (${[...foreign].join(', ')}): their checksums fail wherever this file is used`);
  }
  if (command === 'create-channel' && name) {
    const created = await channels.create(name);
    console.log(`created channel "${name}"; the secret is shown once:`);
    console.log(`channelId=${created.id}`);
    console.log(`secret=${created.secret}`);
    console.log(created.secret);
    return 0;
  }
  if (command === 'list-channels') {
    for (const channel of await channels.list()) {
      const state = channel.revokedAt ? `revoked ${channel.revokedAt}` : 'active';
      const columns = [channel.id, channel.name, channel.createdAt, state];
      if (foreign.has(channel.id)) columns.push(`made with another ${MASTER_KEY_FILE}`);
      console.log(columns.join('\t'));
    }
    return 0;
  }
  if (command === 'revoke-channel' && id) {
    if (!(await channels.revoke(id))) {
      console.error(`no channel ${id}`);
      return 1;
    }
    console.log(`revoked ${id}`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\n${USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof DatabaseOpenError) {
      console.error(`error: ${error.message}`);
      process.exitCode = 1;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  },
);
