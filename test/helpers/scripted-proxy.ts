import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAll } from './fault-proxy';

/**
 * A small reverse proxy on 127.0.0.1:0 in front of an engine, scripted by the test (the fault proxy,
 * fault-proxy.ts, draws faults at random; this one does what a test says, request by request):
 *
 * - `decide(request)`: forward it (the default), answer it here (`{ status, body }`: an envelope the test writes,
 *   e.g. what an older hub's schema would answer), or hold it until `release()` — the request is in flight for
 *   that long, so the terminal neither hears an answer nor sees a failure;
 * - `rewrite(request, body)`: change the upstream's JSON answer before it is relayed (e.g. an older hub's
 *   capabilities).
 *
 * Every request is logged (method, path, parsed JSON body) in `seen`.
 */

export interface ScriptedRequest {
  readonly method: string;
  /** the path without the query, e.g. /api/v3/orders/import */
  readonly path: string;
  /** the body, parsed when it is JSON */
  readonly body: unknown;
}

export type Decision = 'forward' | 'hold' | { readonly status: number; readonly body: unknown };

export interface ScriptedProxyOptions {
  readonly target: string;
  decide?(request: ScriptedRequest): Decision;
  rewrite?(request: ScriptedRequest, body: unknown): unknown;
}

export interface ScriptedProxy {
  readonly url: string;
  readonly seen: ScriptedRequest[];
  /** requests held now */
  held(): number;
  /** forwards every held request */
  release(): void;
  close(): Promise<void>;
}

function parse(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export async function startScriptedProxy(options: ScriptedProxyOptions): Promise<ScriptedProxy> {
  const target = new URL(options.target);
  const seen: ScriptedRequest[] = [];
  let waiting: (() => void)[] = [];

  function forward(req: IncomingMessage, res: ServerResponse, raw: Buffer, request: ScriptedRequest): void {
    const headers = { ...req.headers, host: target.host, 'content-length': String(raw.length) };
    const upstream = http.request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      void readAll(answer).then((body) => {
        const rewritten = options.rewrite && (answer.headers['content-type'] ?? '').includes('json') ? options.rewrite(request, parse(body)) : undefined;
        const out = rewritten === undefined ? body : Buffer.from(JSON.stringify(rewritten));
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(out.length) });
        res.end(out);
      }, () => res.destroy());
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    upstream.end(raw);
  }

  const server = http.createServer((req, res) => {
    void readAll(req).then((raw) => {
      const request: ScriptedRequest = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0] ?? '/', body: parse(raw) };
      seen.push(request);
      const decision = options.decide?.(request) ?? 'forward';
      if (decision === 'forward') return forward(req, res, raw, request);
      if (decision === 'hold') {
        waiting.push(() => forward(req, res, raw, request));
        return;
      }
      const body = Buffer.from(JSON.stringify(decision.body));
      res.writeHead(decision.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) });
      res.end(body);
    }, () => res.destroy());
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const release = (): void => {
    const now = waiting;
    waiting = [];
    for (const go of now) go();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    held: () => waiting.length,
    release,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
