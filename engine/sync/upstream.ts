/**
 * The upstream service through its own v3 interface (any server that speaks it). One call, one answer:
 * retrying is the worker's decision. A network failure or timeout answers status 0.
 */
export interface UpstreamAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfter: number | undefined;
  /** status 0 because no connection could be opened (refused, unknown host, no route): the upstream got nothing */
  readonly unsent?: boolean;
  /** the upstream's clock when it answered (its Date header), epoch ms */
  readonly date?: number;
}

/** Errors of the connection's opening: the request itself never left this machine. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** fetch's failure was the connection not opening (its cause, or every address tried of a host name) */
function notConnected(error: unknown): boolean {
  const cause = typeof error === 'object' && error !== null && 'cause' in error ? error.cause : undefined;
  const code = codeOf(cause);
  if (code !== undefined) return NOT_CONNECTED.has(code);
  const tried = cause instanceof AggregateError ? cause.errors : [];
  return tried.length > 0 && tried.every((one) => NOT_CONNECTED.has(codeOf(one) ?? ''));
}

export interface UpstreamOptions {
  readonly url: string;
  readonly key: string;
  readonly timeoutMs?: number;
  /** aborts every request in flight (the worker stopping) */
  readonly signal?: AbortSignal;
}

export function createUpstream(options: UpstreamOptions) {
  const base = `${options.url.replace(/\/+$/, '')}/api/v3`;
  async function call(method: string, path: string, body?: unknown, idempotencyKey?: string, extra: Readonly<Record<string, string>> = {}): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = { ...extra, 'x-svc-api-key': options.key, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    try {
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: options.signal
          ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs ?? 15_000)])
          : AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
      const text = await response.text();
      const seconds = Number(response.headers.get('retry-after'));
      const date = Date.parse(response.headers.get('date') ?? '');
      return {
        status: response.status,
        body: text ? safeJson(text) : undefined,
        retryAfter: Number.isFinite(seconds) && seconds > 0 ? seconds : undefined,
        ...(Number.isFinite(date) && { date }),
      };
    } catch (error) {
      return { status: 0, body: undefined, retryAfter: undefined, ...(notConnected(error) && { unsent: true }) };
    }
  }
  return {
    url: options.url,
    get: (path: string, headers?: Readonly<Record<string, string>>) => call('GET', path, undefined, undefined, headers),
    /** a POST with headers of its own (Accept-Language: the hub names things in the caller's language) */
    postWith: (path: string, body: unknown, headers: Readonly<Record<string, string>>) => call('POST', path, body, undefined, headers),
    post: (path: string, body?: unknown, idempotencyKey?: string) => call('POST', path, body ?? {}, idempotencyKey),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}

export type Upstream = ReturnType<typeof createUpstream>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON (a proxy's error page): the status alone decides
  }
}

/** The error code of an answer in the spec's envelope, if it is one. */
export function errorOf(answer: UpstreamAnswer): { code: string; message: string; details: Record<string, unknown> } | undefined {
  const body = answer.body;
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = body.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as Record<string, unknown>;
  return {
    code: typeof record.code === 'string' ? record.code : 'UNKNOWN',
    message: typeof record.message === 'string' ? record.message : '',
    details: typeof record.details === 'object' && record.details !== null ? (record.details as Record<string, unknown>) : {},
  };
}

/** `data` of a successful answer. */
export function dataOf<T>(answer: UpstreamAnswer): T | undefined {
  const body = answer.body;
  return typeof body === 'object' && body !== null && 'data' in body ? (body.data as T) : undefined;
}
