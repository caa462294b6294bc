import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A small fault-injecting reverse proxy on 127.0.0.1:0 in front of an upstream engine, for the sync tests.
 *
 * - `down`: every request is answered 502 with no body, without forwarding — what a venue's gateway or a
 *   reverse proxy answers when the service behind it is gone. (Accepting and destroying the socket was the
 *   other choice; it was dropped because Node's fetch (undici) never notices a connection reset during its
 *   first connection of a process — it loads its HTTP parser then — and waits out its whole timeout, so the
 *   kiosk's first pull would hang for 15 s instead of failing. The engine treats both as "offline", and the
 *   reset path — status 0 — is still exercised by `loseAfterForward`.)
 * - `rates`: each request that matches the scope (method, path) draws one number from a seeded PRNG:
 *   `serviceUnavailable` answers 503 without forwarding, `tooMany` answers 429 with `Retry-After: 1`
 *   without forwarding, `loseAfterForward` forwards the request, waits for the upstream's full answer and
 *   then destroys the client's socket without answering (the upstream did the work; the client never
 *   hears of it). Anything else is forwarded and relayed.
 *
 * The PRNG is one mulberry32 stream per route ("POST /orders", "GET /carts/:id", ...), each seeded from the
 * proxy's seed and the route, so the n-th checkout meets the same fate in every run whatever the timing of
 * the other routes (catalog pulls run on a timer). Counters say what the proxy did; `events` keeps a log
 * with timestamps; `onEvent` lets a test act at an exact moment (synchronously, before the client hears).
 */

export interface FaultRates {
  readonly serviceUnavailable?: number;
  readonly loseAfterForward?: number;
  readonly tooMany?: number;
}

export interface FaultScope {
  /** only requests with this method (upper case) */
  readonly method?: string;
  /** only requests whose path (without the query) matches */
  readonly path?: RegExp;
}

export type ProxyEventKind = 'down' | 'serviceUnavailable' | 'tooMany' | 'lost' | 'relayed' | 'upstreamFailed';

export interface ProxyEvent {
  readonly kind: ProxyEventKind;
  /** ms since the epoch (real time): when the proxy answered, dropped or lost it */
  readonly at: number;
  /** ms since the epoch (real time): when the request arrived */
  readonly receivedAt: number;
  readonly method: string;
  /** the request path without the query, e.g. /api/v3/carts/crt_1/items */
  readonly path: string;
  /** method and path with ids replaced and /api/v3 dropped, e.g. "POST /carts/:id/items" */
  readonly route: string;
  /** the upstream's status, when the request was forwarded (lost or relayed) */
  readonly status?: number;
  /** what tells one request from another on a shared path: its Idempotency-Key and a hash of its body */
  readonly identity: string;
}

export interface ProxyCounters {
  /** requests answered 502 because the proxy was down */
  down: number;
  serviceUnavailable: number;
  tooMany: number;
  /** forwarded, answered by the upstream, answer never delivered */
  lost: number;
  /** forwarded and answered */
  relayed: number;
  /** the upstream itself could not be reached (answered 502 with no body) */
  upstreamFailed: number;
  /** "<kind> <route>" → count, e.g. "lost POST /orders" */
  byRoute: Record<string, number>;
  /** "<route> <status>" → count, for every answer the upstream gave (lost or relayed) */
  upstreamStatus: Record<string, number>;
}

export interface FaultProxy {
  readonly url: string;
  readonly counters: ProxyCounters;
  readonly events: readonly ProxyEvent[];
  isDown(): boolean;
  setDown(down: boolean): void;
  /** replaces the fault rates; with a scope, only matching requests are subject to them */
  setRates(rates: FaultRates, scope?: FaultScope): void;
  /** no rates, not down: a transparent proxy */
  heal(): void;
  /** called synchronously for every event, before the client is answered (or not) */
  onEvent(listener: ((event: ProxyEvent) => void) | undefined): void;
  /** requests received and not yet answered, dropped or lost */
  inFlight(): number;
  close(): Promise<void>;
}

export interface FaultProxyOptions {
  /** the upstream engine's base URL, e.g. http://127.0.0.1:40123 */
  readonly target: string;
  readonly seed: number;
  readonly down?: boolean;
  readonly rates?: FaultRates;
  readonly scope?: FaultScope;
}

/** mulberry32: a tiny seeded PRNG with a good spread, answers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string, to derive one seed per route. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** "POST /carts/:id/items": the path without /api/v3 and with every segment that is not a plain word as :id. */
export function routeOf(method: string, path: string): string {
  const segments = path
    .replace(/^\/api\/v3(?=\/|$)/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (/^[a-z]+$/.test(segment) ? segment : ':id'));
  return `${method} /${segments.join('/')}`;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length']);

function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

/** A request's or an answer's whole body. */
export function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

interface UpstreamAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const agent = new http.Agent({ keepAlive: true });
  const streams = new Map<string, () => number>();
  const counters: ProxyCounters = {
    down: 0,
    serviceUnavailable: 0,
    tooMany: 0,
    lost: 0,
    relayed: 0,
    upstreamFailed: 0,
    byRoute: {},
    upstreamStatus: {},
  };
  const events: ProxyEvent[] = [];
  let down = options.down ?? false;
  let rates: FaultRates = options.rates ?? {};
  let scope: FaultScope = options.scope ?? {};
  let listener: ((event: ProxyEvent) => void) | undefined;
  let inFlight = 0;

  const draw = (route: string): number => {
    let stream = streams.get(route);
    if (!stream) {
      stream = mulberry32(hash(`${options.seed}:${route}`));
      streams.set(route, stream);
    }
    return stream();
  };

  const record = (kind: ProxyEventKind, req: IncomingMessage, body: Buffer, receivedAt: number, method: string, path: string, status?: number): void => {
    const route = routeOf(method, path);
    const identity = `${String(req.headers['idempotency-key'] ?? '')} ${createHash('sha1').update(body).digest('hex')}`;
    const event: ProxyEvent = { kind, at: Date.now(), receivedAt, method, path, route, identity, ...(status !== undefined && { status }) };
    events.push(event);
    counters.byRoute[`${kind} ${route}`] = (counters.byRoute[`${kind} ${route}`] ?? 0) + 1;
    if (status !== undefined) counters.upstreamStatus[`${route} ${status}`] = (counters.upstreamStatus[`${route} ${status}`] ?? 0) + 1;
    listener?.(event);
  };

  const inScope = (method: string, path: string): boolean =>
    (scope.method === undefined || scope.method === method) && (scope.path === undefined || scope.path.test(path));

  const forward = (req: IncomingMessage, body: Buffer): Promise<UpstreamAnswer> =>
    new Promise((resolve, reject) => {
      const headers = endToEnd(req.headers);
      headers.host = target.host;
      headers['content-length'] = String(body.length);
      const outgoing = http.request(
        { protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
        (answer) => {
          readAll(answer).then((text) => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: text }), reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const answerError = (res: ServerResponse, status: number, type: string, code: string, extra: OutgoingHttpHeaders = {}): void => {
    const text = JSON.stringify({ error: { type, code, message: `injected by the fault proxy (${status})` } });
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...extra });
    res.end(text);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const body = await readAll(req);
    if (down) {
      counters.down++;
      record('down', req, body, receivedAt, method, path);
      res.writeHead(502, { 'content-length': 0 });
      res.end();
      return;
    }
    let fate: 'pass' | 'serviceUnavailable' | 'tooMany' | 'lose' = 'pass';
    if (inScope(method, path)) {
      const roll = draw(routeOf(method, path));
      const su = rates.serviceUnavailable ?? 0;
      const tm = rates.tooMany ?? 0;
      const lose = rates.loseAfterForward ?? 0;
      if (roll < su) fate = 'serviceUnavailable';
      else if (roll < su + tm) fate = 'tooMany';
      else if (roll < su + tm + lose) fate = 'lose';
    }
    if (fate === 'serviceUnavailable') {
      counters.serviceUnavailable++;
      record('serviceUnavailable', req, body, receivedAt, method, path);
      answerError(res, 503, 'SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE');
      return;
    }
    if (fate === 'tooMany') {
      counters.tooMany++;
      record('tooMany', req, body, receivedAt, method, path);
      answerError(res, 429, 'RATE_LIMIT_ERROR', 'RATE_LIMIT_EXCEEDED', { 'retry-after': '1' });
      return;
    }
    let answer: UpstreamAnswer;
    try {
      answer = await forward(req, body);
    } catch {
      counters.upstreamFailed++;
      record('upstreamFailed', req, body, receivedAt, method, path);
      res.writeHead(502, { 'content-length': 0 });
      res.end();
      return;
    }
    if (fate === 'lose') {
      counters.lost++;
      record('lost', req, body, receivedAt, method, path, answer.status);
      req.socket.destroy();
      return;
    }
    counters.relayed++;
    record('relayed', req, body, receivedAt, method, path, answer.status);
    res.writeHead(answer.status, { ...endToEnd(answer.headers), 'content-length': answer.body.length });
    res.end(answer.body);
  }

  const server = http.createServer((req, res) => {
    inFlight++;
    handle(req, res)
      .catch(() => req.socket.destroy())
      .finally(() => {
        inFlight--;
      });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address: AddressInfo | string | null = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    counters,
    events,
    isDown: () => down,
    setDown(value) {
      down = value;
    },
    setRates(next, nextScope = {}) {
      rates = next;
      scope = nextScope;
    },
    heal() {
      down = false;
      rates = {};
      scope = {};
    },
    onEvent(next) {
      listener = next;
    },
    inFlight: () => inFlight,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
