import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../engine/domain/scopes';
import type { ErrorEnvelope } from '../helpers/engine';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { kill, startServe, type ServeProcess } from '../helpers/serve-process';
import { holdsPlaces, keyIn, serveArgs, tempDirs } from './serve-terminals';
import { FEST, SYNC_SCOPES, catalogFile, httpApi, readonlyDb, sellItem, waitForStatus, waitUntil, type Api, type Order } from './harness';

/**
 * Issue #26's hub test (contract §15, §10): one hub, a till and two gates, every one a real `serve` process, each
 * terminal behind a fault proxy of its own (down: its hub is unreachable for it). The terminals run at the shipped
 * defaults — retry step 1 s, a catalog pull every 60 s, allocations topped up every 5 s: a gate's pull is made to
 * happen by (re)starting it, never by shrinking the interval.
 *
 * 1. the till sells offline; a gate that never talked to the till admits the ticket offline, by its signature, with
 *    the key the till gave the hub before it sold and the gate pulled;
 * 2. online, gate A admits a ticket and gate B refuses it, ALREADY_CHECKED_IN naming gate A;
 * 3. both gates offline admit one ticket; once they are back the hub has both check-ins and one DUPLICATE_ENTRY;
 * 4. a ticket cancelled at the hub is refused offline (TICKET_CANCELLED) at a gate whose pull brought the revocation.
 */

interface Terminal {
  name: string;
  dir: string;
  proxy: FaultProxy;
  args: string[];
  env: Record<string, string>;
  /** its admin key, made in its data folder */
  key: string;
  api: Api;
  process?: ServeProcess;
}
interface TicketKey { keyId: string; publicKey: string; engine: string }
type SignedOrder = Order & { tickets: (Order['tickets'][number] & { signedCode?: string })[] };

const dirs = tempDirs('checkin');
const tempDir = (name: string): string => dirs.make(name);

const catalog = catalogFile();
const COMMON = serveArgs(catalog.path);
let hub: ServeProcess;
let hubApi: Api;
const hubDir = tempDir('hub');
const terminals: Terminal[] = [];

async function terminal(name: string): Promise<Terminal> {
  const dir = tempDir(name);
  const proxy = await startFaultProxy({ target: hub.url, seed: 26 });
  const syncKey = keyIn(hubDir, `${name}-sync`, SYNC_SCOPES as Scope[]);
  const key = keyIn(dir, `${name}-admin`, ['admin']);
  const t: Terminal = { name, dir, proxy, args: ['--data', dir, ...COMMON, '--upstream', proxy.url], env: { KASSA_UPSTREAM_KEY: syncKey }, key, api: httpApi('http://127.0.0.1:1', key) };
  terminals.push(t);
  await start(t);
  return t;
}
async function start(t: Terminal): Promise<void> {
  t.process = await startServe(t.args, 30_000, t.env);
  t.api = httpApi(t.process.url, t.key);
}
async function restart(t: Terminal): Promise<void> {
  if (t.process) await kill(t.process, 'SIGTERM');
  await start(t);
}
/** the key id a terminal signs with (its own key, in its database) */
const ownKeyId = (t: Terminal): string | undefined =>
  readonlyDb(t.dir, (db) => db.prepare<[], { keyId: string }>('SELECT key_id AS keyId FROM ticket_keys WHERE signing = 1').get()?.keyId);

async function keysAt(api: Api): Promise<TicketKey[]> {
  const answer = await api.request<{ data: TicketKey[] }>('GET', '/ticket-keys');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}
async function checkIn(gate: Terminal, code: string, name: string) {
  return gate.api.request<{ data: { result: string; gate: string } } & ErrorEnvelope>('POST', '/checkins', { body: { code, occurrenceId: FEST.occurrenceId, gate: name } });
}
const signedCodeOf = (order: SignedOrder): string => {
  const signed = order.tickets[0]?.signedCode;
  if (signed === undefined) throw new Error(`order ${order.id} has no signed code`);
  return signed;
};
const sellOne = async (till: Terminal): Promise<SignedOrder> => sellItem(till.api, FEST.field.inventoryItemId, FEST.field.adult) as Promise<SignedOrder>;
const waitingCheckins = (gate: Terminal) => waitForStatus(gate.api, (status) => (status as { checkins?: { waiting: number } }).checkins?.waiting === 0, 30_000, `${gate.name}'s check-ins to reach the hub`);
const hubCheckins = (code: string) => readonlyDb(hubDir, (db) => db.prepare<[string], { gate: string; source: string | null }>('SELECT gate, source FROM checkins WHERE ticket_code = ? ORDER BY seq').all(code));

let till: Terminal;
let gateA: Terminal | undefined;
/** gate A, started the first time it is needed */
const gateOfA = async (): Promise<Terminal> => (gateA ??= await terminal('gate-a'));
let gateB: Terminal;
let hubAdmin: string;

beforeAll(async () => {
  hubAdmin = keyIn(hubDir, 'hub-admin', ['admin']);
  hub = await startServe(['--data', hubDir, ...COMMON], 30_000);
  hubApi = httpApi(hub.url, hubAdmin);
  till = await terminal('till');
}, 60_000);
afterAll(async () => {
  for (const t of terminals) if (t.process) await kill(t.process, 'SIGTERM');
  for (const t of terminals) await t.proxy.close();
  if (hub) await kill(hub, 'SIGTERM');
  dirs.removeAll();
  catalog.remove();
});

describe('two gates and a till against one hub', () => {
  it('1: a gate that never talked to the till admits, offline, a ticket the till sold offline', async () => {
    // the till's key reaches the hub at its first contact, before it holds any place to sell
    const tillKey = ownKeyId(till);
    expect(tillKey).toBeDefined();
    await waitUntil(async () => (await keysAt(hubApi)).some((key) => key.keyId === tillKey), 20_000, "the till's key at the hub");
    await holdsPlaces(till.api);

    const a = await gateOfA();
    // its start pull learnt every key the hub knows, the till's with them
    await waitUntil(async () => (await keysAt(a.api)).some((key) => key.keyId === tillKey), 20_000, "the till's key at gate A");

    till.proxy.setDown(true);
    const sold = await sellOne(till);
    a.proxy.setDown(true);
    const admitted = await checkIn(a, signedCodeOf(sold), 'A');
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(201);
    expect(admitted.body.data).toMatchObject({ result: 'admitted', gate: 'A' });
    a.proxy.setDown(false);
    till.proxy.setDown(false);
    // exactly once at the hub
    await waitingCheckins(a);
    expect(hubCheckins(sold.tickets[0]?.code ?? '')).toEqual([{ gate: 'A', source: expect.any(String) }]);
  }, 90_000);

  it('2: online, gate B refuses the ticket gate A admitted: ALREADY_CHECKED_IN naming gate A', async () => {
    const a = await gateOfA();
    gateB = await terminal('gate-b');
    const sold = await sellOne(till);
    // by the 20-character code, at both gates: the hub knows it, the till's order imported under the codes it printed
    await waitForStatus(till.api, (status) => status.waiting === 0, 30_000, 'the till to deliver its orders');
    const code = sold.tickets[0]?.code ?? '';
    const first = await checkIn(a, code, 'A');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await checkIn(gateB, code, 'B');
    expect(second.status, JSON.stringify(second.body)).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'ALREADY_CHECKED_IN', details: { gate: 'A' } });
    // decided at the hub: it holds the one check-in
    expect(hubCheckins(code)).toEqual([{ gate: 'A', source: expect.any(String) }]);
    // gate B's counts are the hub's while it answers (gate B itself admitted nobody)
    const path = `/occurrences/${FEST.occurrenceId}/checkins`;
    const atGate = await gateB.api.request<{ data: { admitted: number } }>('GET', path);
    expect(atGate.status).toBe(200);
    expect(atGate.body.data.admitted).toBeGreaterThan(0);
    expect(atGate.body.data).toEqual((await hubApi.request<{ data: unknown }>('GET', path)).body.data);
  }, 60_000);

  it('3: both gates offline admit one ticket; back online, the hub has both and one DUPLICATE_ENTRY', async () => {
    const a = await gateOfA();
    const sold = await sellOne(till);
    const code = sold.tickets[0]?.code ?? '';
    a.proxy.setDown(true);
    gateB.proxy.setDown(true);
    expect((await checkIn(a, signedCodeOf(sold), 'A')).status).toBe(201);
    expect((await checkIn(gateB, signedCodeOf(sold), 'B')).status).toBe(201);
    a.proxy.setDown(false);
    gateB.proxy.setDown(false);
    await waitingCheckins(a);
    await waitingCheckins(gateB);

    // nothing refused after the fact, nothing lost
    expect(hubCheckins(code).map((row) => row.gate).sort()).toEqual(['A', 'B']);
    const status = await hubApi.request<{ data: { conflicts: { kind: string; code: string; message: string }[] } }>('GET', '/sync/status');
    const duplicates = status.body.data.conflicts.filter((conflict) => conflict.code === 'DUPLICATE_ENTRY');
    expect(duplicates).toHaveLength(1);
    expect(duplicates[0]).toMatchObject({ kind: 'checkin' });
    expect(duplicates[0]?.message).toContain(code);
    const counts = await hubApi.request<{ data: { admitted: number; inside: number } }>('GET', `/occurrences/${FEST.occurrenceId}/checkins`);
    expect(counts.body.data).toMatchObject({ admitted: 3, inside: 3 });
  }, 60_000);

  it('4: a ticket cancelled at the hub is refused offline at a gate whose pull brought the revocation', async () => {
    const sold = await sellOne(till);
    await waitForStatus(till.api, (status) => status.waiting === 0, 30_000, 'the till to deliver its orders');
    const orders = await hubApi.request<{ data: Order[] }>('GET', '/orders?limit=50');
    const atHub = orders.body.data.find((order) => order.payment.reference === sold.id);
    expect(atHub, 'the till\'s order at the hub').toBeDefined();
    const cancelled = await hubApi.request('POST', `/orders/${atHub?.id ?? ''}/cancel`, { body: {} });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

    // the shipped pull is every 60 s: a restart pulls at once
    await restart(gateB);
    await waitUntil(() => readonlyDb(gateB.dir, (db) => db.prepare('SELECT 1 FROM ticket_revocations WHERE code = ?').get(sold.tickets[0]?.code ?? '') !== undefined), 20_000, 'the revocation at gate B');
    gateB.proxy.setDown(true);
    const refused = await checkIn(gateB, signedCodeOf(sold), 'B');
    expect(refused.status, JSON.stringify(refused.body)).toBe(410);
    expect(refused.body.error.code).toBe('TICKET_CANCELLED');
    gateB.proxy.setDown(false);
  }, 60_000);
});
