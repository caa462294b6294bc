import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../engine/store/db';
import { createKeyRepo } from '../../engine/store/key-repo';
import { isScope } from '../../engine/domain/scopes';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { SYNC_SCOPES, waitForStatus } from './harness';

/**
 * Issue #22: a terminal whose hub refuses its sync key is not online — GET /sync/status says `online: false`
 * beside `keyRejected: true` (it said `online: true`), and online again once the hub takes the key. At the
 * shipped sync settings (1 s retry step, 1 s idle look) but a shorter catalog pull, so that the test need not
 * wait a minute for the next look at the key.
 */

const open: TestEngine[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((engine) => engine.close()));
});

/** a key made at the hub, with its id (to revoke it while the terminal runs) */
function hubKey(hub: TestEngine): { id: string; key: string } {
  const db = openDatabase(hub.dataDir);
  try {
    return createKeyRepo(db).create('terminal', SYNC_SCOPES.filter(isScope));
  } finally {
    db.close();
  }
}

function revoke(hub: TestEngine, id: string): void {
  const db = openDatabase(hub.dataDir);
  try {
    createKeyRepo(db).revoke(id);
  } finally {
    db.close();
  }
}

describe('a terminal whose hub refuses its sync key', () => {
  it('a key the hub does not know: keyRejected and not online, with the reason', async () => {
    const hub = await startTestEngine();
    open.push(hub);
    const terminal = await startTestEngine({ upstream: { url: hub.url, key: 'kassa_this_key_does_not_exist_upstream' } });
    open.push(terminal);
    const status = await waitForStatus(terminal, (s) => s.keyRejected, 15_000, 'the key to be refused');
    expect(status.online).toBe(false);
    expect(status.lastError).toContain('INVALID_API_KEY');
  });

  it('a key revoked while the terminal runs: online, then not online while refused', async () => {
    const hub = await startTestEngine();
    open.push(hub);
    const { id, key } = hubKey(hub);
    const terminal = await startTestEngine({ upstream: { url: hub.url, key, pullIntervalMs: 500 } });
    open.push(terminal);
    const before = await waitForStatus(terminal, (s) => s.online === true && s.upstreamKind === 'hub', 15_000, 'the terminal to be online');
    expect(before.keyRejected).toBe(false);

    revoke(hub, id);
    const refused = await waitForStatus(terminal, (s) => s.keyRejected, 15_000, 'the revoked key to be refused');
    expect(refused.online).toBe(false);
    // and it stays so: nothing the terminal sends is taken
    await new Promise((done) => setTimeout(done, 1_500));
    expect(await waitForStatus(terminal, () => true, 1_000, 'a status')).toMatchObject({ keyRejected: true, online: false });
  });
});
