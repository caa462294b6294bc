import { connect } from 'node:net';

/**
 * Raw ESC/POS over TCP (port 9100 by convention), one connection per job, as the field's reference does.
 *
 * A ticket printer sends no acknowledgement, so the only proof that a job arrived is the printer reading it
 * to its end: Kassa writes the bytes, half-closes (FIN), and counts the job as taken when the printer closes
 * its side in turn — which it does only after reading everything before our FIN. The outcome says whether
 * any byte may have left (`sent`): a job that never connected is safe to send again; one that connected and
 * then broke or stalled may be half on paper and is never resent automatically (at most once).
 */

export interface TcpTimeouts {
  /** how long to wait for the printer to accept the connection */
  readonly connectTimeoutMs: number;
  /** how long, once connected, the printer may take to read the whole job */
  readonly writeTimeoutMs: number;
}

export const DEFAULT_TCP_TIMEOUTS: TcpTimeouts = { connectTimeoutMs: 5_000, writeTimeoutMs: 15_000 };

/** slips a printer's buffer takes at once (a few KB: ~400 bytes a ticket) */
const BUFFERED_SLIPS = 10;
/** what a slip beyond those may take to print and cut on a slow printer (a fast one needs under 1 s) */
const MS_PER_SLIP = 2_000;

/**
 * The timeouts for a job of `slips` slips (tickets and receipt). A printer reads a job as fast as its buffer
 * takes it, then only as fast as it prints: a job larger than its buffer (a 1,000-ticket order is ~400 KB)
 * cannot be taken within the write timeout, and would fail as stalled halfway through its paper. So the write
 * timeout grows by MS_PER_SLIP for every slip beyond BUFFERED_SLIPS (1,000 tickets: ~33 min); a small job's is
 * the configured one.
 */
export function timeoutsForJob(timeouts: TcpTimeouts, slips: number): TcpTimeouts {
  return { ...timeouts, writeTimeoutMs: timeouts.writeTimeoutMs + Math.max(0, slips - BUFFERED_SLIPS) * MS_PER_SLIP };
}

export type SendOutcome = { readonly ok: true } | { readonly ok: false; readonly sent: boolean; readonly reason: string };

export function sendTcp(target: { host: string; port: number }, bytes: Uint8Array, timeouts: TcpTimeouts, signal?: AbortSignal): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host: target.host, port: target.port });
    let connected = false;
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = () => finish({ ok: false, sent: connected, reason: 'the engine shut down while printing' });
    let timer = setTimeout(() => finish({ ok: false, sent: false, reason: `no connection within ${timeouts.connectTimeoutMs / 1000} s` }), timeouts.connectTimeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.setNoDelay(true);
    socket.on('connect', () => {
      connected = true;
      clearTimeout(timer);
      timer = setTimeout(
        () => finish({ ok: false, sent: true, reason: `the printer did not take the whole job within ${timeouts.writeTimeoutMs / 1000} s (stalled: paper out, cover open?)` }),
        timeouts.writeTimeoutMs,
      );
      socket.end(bytes);
    });
    // Status bytes a printer may send back are read and dropped, so its close reaches us.
    socket.on('data', () => undefined);
    socket.on('error', (error: NodeJS.ErrnoException) => finish({ ok: false, sent: connected, reason: describe(error) }));
    socket.on('close', (hadError) => {
      if (!hadError && connected) finish({ ok: true });
      else finish({ ok: false, sent: connected, reason: 'the connection closed unexpectedly' });
    });
  });
}

/** Whether a printer accepts connections: connect and close without sending a byte. */
export function probeTcp(target: { host: string; port: number }, timeoutMs: number, signal?: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: target.host, port: target.port });
    const onAbort = () => done('the engine is shutting down');
    const done = (reason: string | undefined) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => done(`no connection within ${timeoutMs / 1000} s`), timeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('connect', () => done(undefined));
    socket.on('error', (error: NodeJS.ErrnoException) => done(describe(error)));
  });
}

function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'the printer refused the connection (off, or busy with another job)';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the printer is unreachable on the network';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the printer\'s host name is unknown';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the printer broke the connection';
    default:
      return `printer connection failed (${error.code ?? error.message})`;
  }
}
