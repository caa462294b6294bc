import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startEngine, type RunningEngine } from '../../engine/start';
import { testStaffPinHash } from '../helpers/engine';
import { createTestDatabase, postgresAvailable, postgresSuite } from '../helpers/postgres';

/**
 * The UI key of engine processes sharing one PostgreSQL database (contract §16): each start makes its process's
 * UI key and revokes its own previous one — never the key of the pages another live process serves (each start
 * used to revoke every `ui-session` key, logging out the kiosks of all other processes).
 */

const engines: RunningEngine[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const folder = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

async function start(database: string, dataDir: string, uiDir: string): Promise<RunningEngine & { key: string }> {
  const engine = await startEngine({ database, dataDir, uiDir, port: 0, logger: pino({ level: 'silent' }), staffPinHash: testStaffPinHash() });
  engines.push(engine);
  if (!engine.ui) throw new Error('no UI served');
  return Object.assign(engine, { key: engine.ui.config.apiKey });
}

const status = async (engine: RunningEngine, key: string): Promise<number> =>
  (await fetch(`${engine.url}/api/v3/locations`, { headers: { 'x-svc-api-key': key } })).status;

describe.skipIf(!postgresAvailable())(postgresSuite('UI keys of engine processes sharing one database'), () => {
  it('a process starting, or starting again, leaves the UI key of another live process working', async () => {
    const database = await createTestDatabase({ migrated: true });
    const uiDir = folder('kassa-ui-');
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>kiosk</title>');
    const [dirA, dirB] = [folder('kassa-ui-a-'), folder('kassa-ui-b-')];
    const a = await start(database, dirA, uiDir);
    const b = await start(database, dirB, uiDir);
    expect([await status(a, a.key), await status(b, b.key), await status(b, a.key)]).toEqual([200, 200, 200]);

    await a.close();
    const again = await start(database, dirA, uiDir);
    // its own previous key is revoked; the other process's is not
    expect([await status(again, a.key), await status(again, again.key), await status(b, b.key)]).toEqual([401, 200, 200]);
  }, 30_000);
});
