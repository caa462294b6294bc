import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mayHaveMadeCart } from '../../../engine/sync/earlier-carts';
import { createUpstream } from '../../../engine/sync/upstream';

/**
 * Whether a POST /carts that went wrong may have made a cart upstream (engine/sync/earlier-carts.ts): a
 * request that never left (no connection) or that was refused before anything was done made none; one that
 * was sent and whose answer was lost may have. Real sockets on loopback.
 */

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

function listen(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer(onConnection);
  servers.push(server);
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
}

async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
  await new Promise((done) => server.close(done));
  return port;
}

describe('a POST /carts without an answer', () => {
  it('refused connection: status 0, not sent, made no cart', async () => {
    const upstream = createUpstream({ url: `http://127.0.0.1:${await closedPort()}`, key: 'k', timeoutMs: 2_000 });
    const answer = await upstream.post('/carts', { items: [] });
    expect(answer).toMatchObject({ status: 0, unsent: true });
    expect(mayHaveMadeCart(answer)).toBe(false);
  });

  it('sent, then the connection reset before the answer: status 0, may have made a cart', async () => {
    const port = await listen((socket) => socket.once('data', () => socket.destroy()));
    const upstream = createUpstream({ url: `http://127.0.0.1:${port}`, key: 'k', timeoutMs: 2_000 });
    const answer = await upstream.post('/carts', { items: [] });
    expect(answer.status).toBe(0);
    expect(answer.unsent).toBeUndefined();
    expect(mayHaveMadeCart(answer)).toBe(true);
  });

  it('answered: a 500 or 504 may have made one; 502, 503, 429 and a refusal did not', () => {
    const answer = (status: number) => ({ status, body: undefined, retryAfter: undefined });
    expect([500, 504].map((status) => mayHaveMadeCart(answer(status)))).toEqual([true, true]);
    expect([502, 503, 429, 409, 201].map((status) => mayHaveMadeCart(answer(status)))).toEqual([false, false, false, false, false]);
  });
});
