import { ApiError, networkError } from './errors';
import { retryDelay, type Outcome } from './retry';
import type { Cart, CreateCart, ErrorBody, StaffSession, Event, Holdings, Inventory, Location, Order, Payment, Money, PdfSize, PrintBody, PrintJob, Printer, SyncConflict, SyncStatus } from './types';
import type { GiftCardQuote, GiftCardView, OrdersSummary } from './types';
import type { CashMovement, Shift, ShiftPrintBody, ShiftPrintJob, ShiftReport } from './types';
import type { CheckinBody, CheckinCounts, CheckinResult } from './types';

/**
 * The UI's only way to the engine: its localhost HTTP API, typed by the engine's schemas. Answers in the
 * error envelope become ApiErrors; retries follow spec §7.4 (see retry.ts).
 */
export interface ClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  /**
   * Answers the key to use after `rejected` answered 401: each start of the engine issues a new UI key and
   * revokes the old one, so a 401 after a restart is answered by fetching the page's configuration once more,
   * then retrying once. null: no key replaces it (a staff key that lapsed: staff sign in again), no retry.
   */
  readonly reauthenticate?: (rejected: string) => Promise<string | null>;
  readonly language: () => string;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly timeoutMs?: number;
}

interface Call {
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** a network failure may be retried: reads, and a checkout with its Idempotency-Key */
  readonly repeatable: boolean;
  /** answer at once, never retry (the connectivity probe must report quickly) */
  readonly once?: boolean;
  readonly timeoutMs?: number;
  /** answer the Response itself, unread (a PDF download) */
  readonly raw?: boolean;
  /** 5xx error codes answered at once rather than retried: someone is waiting and a retry is one tap away */
  readonly answerAtOnce?: readonly string[];
  /** sent without a key, and a 401 is the answer itself (the staff sign-in's wrong PIN) */
  readonly anonymous?: boolean;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createClient(options: ClientOptions) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? wait;
  let apiKey = options.apiKey;
  /** one refetch shared by every call that met the same 401 */
  let renewing: Promise<boolean> | undefined;
  /** keys replaced by a renewal (a restart's new UI key): a call sent with one goes again with the new key */
  const renewed = new Set<string>();

  function renewKey(rejected: string): Promise<boolean> {
    if (renewed.has(rejected)) return Promise.resolve(true); // another call already has the new key
    // the key was switched meanwhile (staff signed in or out): never replay a request under another identity
    if (apiKey !== rejected) return Promise.resolve(false);
    const reauthenticate = options.reauthenticate;
    if (!reauthenticate) return Promise.resolve(false);
    renewing ??= reauthenticate(rejected)
      .then(
        (key) => {
          if (key === null || key === apiKey) return false;
          renewed.add(rejected);
          apiKey = key;
          return true;
        },
        () => false,
      )
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  }

  async function once(method: string, path: string, call: Call): Promise<{ outcome: Outcome; response?: Response }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), call.timeoutMs ?? options.timeoutMs ?? 15_000);
    try {
      const headers: Record<string, string> = { ...(!call.anonymous && { 'x-svc-api-key': apiKey }), 'accept-language': options.language(), ...call.headers };
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      const response = await doFetch(`${options.baseUrl}${path}`, {
        method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: controller.signal,
      });
      return { outcome: { kind: 'status', status: response.status, retryAfter: response.headers.get('retry-after') }, response };
    } catch {
      return { outcome: { kind: 'network' } };
    } finally {
      clearTimeout(timer);
    }
  }

  async function request<T>(method: string, path: string, call: Call): Promise<T> {
    let renewedOnce = false;
    for (let retries = 0; ; retries += 1) {
      const sentWith = apiKey;
      const { outcome, response } = await once(method, path, call);
      if (response?.status === 401 && !renewedOnce && !call.anonymous) {
        renewedOnce = true;
        // A 401 is answered before anything is done, so sending the same request again is safe.
        if (await renewKey(sentWith)) {
          retries -= 1;
          continue;
        }
      }
      const delay = call.once ? undefined : retryDelay(outcome, retries, call.repeatable);
      if (delay !== undefined && !(response && call.answerAtOnce && call.answerAtOnce.includes(await errorCode(response)))) {
        await sleep(delay);
        continue;
      }
      if (!response) throw networkError('The engine could not be reached.');
      if (response.status === 204) return undefined as T;
      if (response.ok && call.raw) return response as T;
      const body: unknown = await response.json().catch(() => undefined);
      if (response.ok) return body as T;
      throw new ApiError(response.status, isErrorBody(body) ? body.error : { type: 'API_ERROR', code: 'UNREADABLE_ANSWER', message: response.statusText });
    }
  }

  const read = { repeatable: true } as const;
  const write = (body?: unknown) => ({ body, repeatable: false });
  const q = (currency?: string) => (currency ? `?currency=${encodeURIComponent(currency)}` : '');
  const c = (cartId: string) => `/carts/${encodeURIComponent(cartId)}`;
  const s = (shiftId: string) => `/shifts/${encodeURIComponent(shiftId)}`;
  const data = <T>(promise: Promise<{ data: T }>) => promise.then((answer) => answer.data);

  return {
    /** the key calls go with from now on (a staff sign-in, a sign-out) */
    setKey(key: string): void {
      apiKey = key;
    },
    /** the box office's staff sign-in (same origin, no key): its key, or 401 INVALID_STAFF_PIN / 429 when locked */
    signIn: (pin: string) => data(request<{ data: StaffSession }>('POST', '/staff-sessions', { body: { pin }, repeatable: false, once: true, anonymous: true })),
    signOut: () => request<undefined>('DELETE', '/staff-sessions/current', { repeatable: false, once: true }),
    health: () => request<{ status: string }>('GET', '/health', { ...read, once: true, timeoutMs: 3000 }),
    locations: () => data(request<{ data: Location[] }>('GET', '/locations', read)),
    events: () => data(request<{ data: Event[] }>('GET', '/events', read)),
    inventory: (occurrenceId: string, currency?: string) =>
      data(request<{ data: Inventory }>('GET', `/occurrences/${encodeURIComponent(occurrenceId)}/inventory${q(currency)}`, read)),
    createCart: (body: CreateCart) => data(request<{ data: Cart }>('POST', '/carts', write(body))),
    cart: (cartId: string, currency?: string) => data(request<{ data: Cart }>('GET', `${c(cartId)}${q(currency)}`, read)),
    /**
     * A currency with no rate (503 CURRENCY_TEMPORARILY_UNAVAILABLE) is said at once instead of after the 1 + 2 + 4 s
     * of retries spec §7.4 allows: a rate comes with a catalog or rates update, not within seconds, and the
     * person at the screen can choose the currency again (docs/ui.md).
     */
    switchCurrency: (cartId: string, currency: string) =>
      data(request<{ data: Cart }>('PATCH', c(cartId), { ...write({ currency }), answerAtOnce: ['CURRENCY_TEMPORARILY_UNAVAILABLE'] })),
    releaseCart: (cartId: string) => request<undefined>('DELETE', c(cartId), read),
    addExtras: (cartId: string, items: { extraId: string; quantity: number }[]) =>
      data(request<{ data: Cart }>('POST', `${c(cartId)}/items`, write({ items }))),
    changeExtra: (cartId: string, itemId: string, quantity: number) =>
      data(request<{ data: Cart }>('PATCH', `${c(cartId)}/items/${encodeURIComponent(itemId)}`, write({ quantity }))),
    removeExtra: (cartId: string, itemId: string) => data(request<{ data: Cart }>('DELETE', `${c(cartId)}/items/${encodeURIComponent(itemId)}`, read)),
    applyVoucher: (cartId: string, code: string) => data(request<{ data: Cart }>('POST', `${c(cartId)}/vouchers`, write({ code }))),
    removeVoucher: (cartId: string, code: string) =>
      data(request<{ data: Cart }>('DELETE', `${c(cartId)}/vouchers/${encodeURIComponent(code)}`, read)),
    /** A timed-out checkout is retried with the same key: the engine answers the order it created, if any. */
    placeOrder: (body: { cartId: string; expectedTotal: Money; payment: Payment }, idempotencyKey: string) =>
      data(request<{ data: Order }>('POST', '/orders', { body, headers: { 'idempotency-key': idempotencyKey }, repeatable: true, timeoutMs: 30_000 })),
    /**
     * What the cards would take of the cart's total, in the order given, and what is left to pay (nothing held,
     * nothing written): the UI shows the engine's figures and computes none (contract §13). Gift-card calls are
     * answered at once, never retried: a 429 (too many unknown codes) or a terminal's 503 UPSTREAM_UNAVAILABLE is
     * said to the person at the screen, who tries another card or pays otherwise.
     */
    giftCardQuote: (cartId: string, giftCards: { code: string }[]) =>
      data(request<{ data: GiftCardQuote }>('POST', `${c(cartId)}/gift-card-quote`, { ...write({ giftCards }), once: true })),
    /** a gift card's balance, status and transactions (the box office's balance check) */
    giftCard: (code: string) => data(request<{ data: GiftCardView }>('GET', `/gift-cards/${encodeURIComponent(code)}`, { ...read, once: true })),
    order: (orderId: string) => data(request<{ data: Order }>('GET', `/orders/${encodeURIComponent(orderId)}`, read)),
    orderByTicket: (code: string) => data(request<{ data: Order[] }>('GET', `/orders?ticketCode=${encodeURIComponent(code)}`, read)),
    recentOrders: (limit = 20) => data(request<{ data: Order[] }>('GET', `/orders?limit=${limit}`, read)),
    /** a page of orders, newest first; `nextCursor` asks for the page after it (box office, #22) */
    ordersPage: (limit: number, cursor?: string) =>
      request<{ data: Order[]; nextCursor?: string }>('GET', `/orders?limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, read),
    /** the orders made from `from` to `to`, added up per currency by the engine (box office, #22) */
    ordersSummary: (from: string, to: string) =>
      data(request<{ data: OrdersSummary }>('GET', `/orders/summary?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, read)),
    cancelOrder: (orderId: string) => data(request<{ data: Order }>('POST', `/orders/${encodeURIComponent(orderId)}/cancel`, write())),
    /** the connectivity probe: answered at once, never retried */
    syncStatus: () => data(request<{ data: SyncStatus }>('GET', '/sync/status', { ...read, once: true, timeoutMs: 3000 })),
    // printing (contract §12)
    print: (orderId: string, body: PrintBody) => data(request<{ data: PrintJob }>('POST', `/orders/${encodeURIComponent(orderId)}/print`, write(body))),
    printJob: (jobId: string) => data(request<{ data: PrintJob }>('GET', `/print-jobs/${encodeURIComponent(jobId)}`, read)),
    printJobs: (limit = 50) => data(request<{ data: PrintJob[] }>('GET', `/print-jobs?limit=${limit}`, read)),
    printers: () => data(request<{ data: Printer[] }>('GET', '/printers', read)),
    /** the tickets as a PDF (A4 or 80 mm), fetched with the key header a plain link could not carry */
    ticketsPdf: (orderId: string, size: PdfSize) =>
      request<Response>('GET', `/orders/${encodeURIComponent(orderId)}/tickets.pdf?size=${size}`, { ...read, raw: true }).then((response) => response.blob()),
    // shifts and the cash drawer (contract §14): the engine counts every figure, the UI shows them
    /** the open shift, or null (404 RESOURCE_NOT_FOUND: the drawer is closed) */
    currentShift: () =>
      data(request<{ data: Shift }>('GET', '/shifts/current', read)).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
    /** newest first, a page at a time */
    shifts: (limit: number, cursor?: string) =>
      request<{ data: Shift[]; nextCursor?: string }>('GET', `/shifts?limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, read),
    openShift: (openingFloat: Money, staff?: string) => data(request<{ data: Shift }>('POST', '/shifts', write({ openingFloat, ...(staff !== undefined && { staff }) }))),
    cashMovement: (shiftId: string, body: { kind: CashMovement['kind']; amount: Money; reason: string }) =>
      data(request<{ data: CashMovement }>('POST', `${s(shiftId)}/cash-movements`, write(body))),
    shiftReport: (shiftId: string) => data(request<{ data: ShiftReport }>('GET', `${s(shiftId)}/report`, read)),
    closeShift: (shiftId: string, counted: Money, note?: string) =>
      data(request<{ data: Shift }>('POST', `${s(shiftId)}/close`, write({ counted, ...(note !== undefined && { note }) }))),
    /** the X or Z report on the receipt printer: a print job (202) */
    printShift: (shiftId: string, body: ShiftPrintBody = {}) => data(request<{ data: ShiftPrintJob }>('POST', `${s(shiftId)}/print`, write(body))),
    shiftPrintJob: (jobId: string) => data(request<{ data: ShiftPrintJob }>('GET', `/print-jobs/${encodeURIComponent(jobId)}`, read)),
    // checking tickets at the door (contract §15): a refusal is the answer itself, said at once, never retried
    checkIn: (body: CheckinBody) => data(request<{ data: CheckinResult }>('POST', '/checkins', { ...write(body), once: true, timeoutMs: 5000 })),
    checkinCounts: (occurrenceId: string) =>
      data(request<{ data: CheckinCounts }>('GET', `/occurrences/${encodeURIComponent(occurrenceId)}/checkins`, { ...read, once: true, timeoutMs: 5000 })),
    holdings: () => data(request<{ data: Holdings }>('GET', '/sync/holdings', { ...read, once: true, timeoutMs: 3000 })),
    giveBack: (occurrenceId?: string) => data(request<{ data: Holdings }>('POST', '/sync/holdings/give-back', write(occurrenceId === undefined ? {} : { occurrenceId }))),
    retryConflict: (id: number) => data(request<{ data: SyncConflict }>('POST', `/sync/conflicts/${id}/retry`, write())),
    resolveConflict: (id: number, note: string) => data(request<{ data: SyncConflict }>('POST', `/sync/conflicts/${id}/resolve`, write({ note }))),
    /** a hub's DUPLICATE_ENTRY (kind `checkin`, issue #26): resolved with a note, never retried (nothing was refused) */
    resolveCheckinConflict: (id: number, note: string) => data(request<{ data: SyncConflict }>('POST', `/sync/checkin-conflicts/${id}/resolve`, write({ note }))),
  };
}

export type ApiClient = ReturnType<typeof createClient>;

/** The error code of an answer in the error envelope (read from a copy: the answer stays unread). */
async function errorCode(response: Response): Promise<string> {
  const body: unknown = await response.clone().json().catch(() => undefined);
  return isErrorBody(body) ? body.error.code : '';
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object' && body.error !== null && 'code' in body.error;
}
