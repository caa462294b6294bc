import { isScope, SCOPES, type Scope } from '../domain/scopes';
import { openDatabase, type Db } from '../store/db';
import { createKeyRepo } from '../store/key-repo';
import { createChannelRepo, loadMasterKey } from '../store/channel-repo';
import { STAFF_OWNER } from '../staff/sessions';
import { strictParse, UsageError } from './args';

/** The owners the engine's own keys share (the kiosk page's, engine/start.ts; staff sessions'): not for `--owner`. */
const ROLE_OWNERS = ['kiosk', STAFF_OWNER];

/**
 * `npm run keys -- create --data DIR --name NAME --scopes a,b [--owner OWNER]` prints the new key alone on the last
 * line of stdout (it is shown once and stored only as a hash); `keys list`; `keys revoke ID`; `keys replace ID`
 * makes a new key with the old one's name, scopes and owner, prints it like `create` and revokes the old one
 * (rotation: the orders the old key made stay the new key's — a terminal's at a hub, docs/security.md).
 * Channels of the legacy v1 interface (contract §11): `create-channel --name NAME` prints `channelId=…` and
 * `secret=…`, the secret alone on the last line; `list-channels`; `revoke-channel ID`.
 */
const USAGE = `usage: npm run keys -- create --name NAME --scopes ${SCOPES.join(',')} [--owner OWNER] [--data DIR]
       npm run keys -- list [--data DIR]
       npm run keys -- revoke ID [--data DIR]
       npm run keys -- replace ID [--data DIR]
       npm run keys -- create-channel --name NAME [--data DIR]
       npm run keys -- list-channels [--data DIR]
       npm run keys -- revoke-channel ID [--data DIR]`;

function main(): number {
  const { values, positionals } = strictParse({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { data: { type: 'string', default: './data' }, name: { type: 'string' }, scopes: { type: 'string' }, owner: { type: 'string' } },
  });
  const [command, id] = positionals;
  const db = openDatabase(values.data);
  try {
    const keys = createKeyRepo(db);
    if (command === 'create') {
      const scopes = (values.scopes ?? '').split(',').map((scope) => scope.trim()).filter(Boolean);
      const unknown = scopes.filter((scope) => !isScope(scope));
      const owner = values.owner?.trim();
      if (owner !== undefined && ROLE_OWNERS.includes(owner)) {
        console.error(`owner ${owner} is the engine's own (${ROLE_OWNERS.join(', ')}): choose another, e.g. the terminal's name`);
        return 2;
      }
      if (!values.name || scopes.length === 0 || unknown.length > 0 || owner === '') {
        console.error(unknown.length > 0 ? `unknown scope: ${unknown.join(', ')} (known: ${SCOPES.join(', ')})` : USAGE);
        return 2;
      }
      const created = keys.create(values.name, scopes.filter((scope): scope is Scope => isScope(scope)), owner === undefined ? {} : { owner });
      console.log(`created ${created.id} "${values.name}" with scopes ${scopes.join(',')}, owner ${owner ?? created.id}; the key is shown once:`);
      console.log(created.key);
      return 0;
    }
    if (command === 'list') {
      for (const key of keys.list()) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : 'active';
        console.log([key.id, key.name, key.scopes.join(','), key.createdAt, state, `owner ${key.owner}`].join('\t'));
      }
      return 0;
    }
    if (command === 'replace' && id) {
      const created = keys.replace(id);
      if (!created) {
        console.error(`no key ${id}`);
        return 1;
      }
      console.log(`created ${created.id} "${created.name}" with scopes ${created.scopes.join(',')}, owner ${created.owner}; revoked ${id}; the key is shown once:`);
      console.log(created.key);
      return 0;
    }
    if (command === 'revoke' && id) {
      if (!keys.revoke(id)) {
        console.error(`no key ${id}`);
        return 1;
      }
      console.log(`revoked ${id}`);
      return 0;
    }
    if (command !== undefined && CHANNEL_COMMANDS.includes(command)) return channelCommand(db, values.data, command, id, values.name);
    console.error(USAGE);
    return 2;
  } finally {
    db.close();
  }
}

const CHANNEL_COMMANDS = ['create-channel', 'list-channels', 'revoke-channel'];

function channelCommand(db: Db, dataDir: string, command: string, id: string | undefined, name: string | undefined): number {
  const channels = createChannelRepo(db, loadMasterKey(dataDir));
  if (command === 'create-channel' && name) {
    const created = channels.create(name);
    console.log(`created channel "${name}"; the secret is shown once:`);
    console.log(`channelId=${created.id}`);
    console.log(`secret=${created.secret}`);
    console.log(created.secret);
    return 0;
  }
  if (command === 'list-channels') {
    for (const channel of channels.list()) {
      console.log([channel.id, channel.name, channel.createdAt, channel.revokedAt ? `revoked ${channel.revokedAt}` : 'active'].join('\t'));
    }
    return 0;
  }
  if (command === 'revoke-channel' && id) {
    if (!channels.revoke(id)) {
      console.error(`no channel ${id}`);
      return 1;
    }
    console.log(`revoked ${id}`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`error: ${error.message}\n${USAGE}`);
  process.exitCode = 2;
}
