import { createServer, type Server, type Socket } from 'node:net';

/**
 * A fake ESC/POS network printer on 127.0.0.1: it records the bytes of every connection and, like a real
 * raw-9100 printer, closes its side once it has read the job to its end. It can be turned off (connections
 * refused) and on again on the same port, or stall (accept, never read, never close: paper out), or read slowly
 * (a printer that prints as it reads once its buffer is full).
 */

export interface FakePrinter {
  readonly port: number;
  /** the printer as `--printer` takes it */
  readonly url: string;
  /** one entry per job read to its end */
  readonly jobs: Buffer[];
  /** connections accepted, jobs or not (a probe connects and sends nothing) */
  connections: number;
  mode: 'print' | 'stall';
  /** how fast it reads a job, like a printer whose buffer is full and prints as it reads (default: at once) */
  readBytesPerSecond: number | undefined;
  /** stop listening: connections are refused */
  off(): Promise<void>;
  /** listen again on the same port */
  on(): Promise<void>;
  /** resolves once `count` jobs have arrived */
  waitForJobs(count: number, timeoutMs?: number): Promise<Buffer[]>;
  close(): Promise<void>;
}

export async function startFakePrinter(options: { paperQuery?: string } = {}): Promise<FakePrinter> {
  const sockets = new Set<Socket>();
  const waiters: (() => boolean)[] = [];
  let server: Server | undefined;
  let port = 0;

  const printer: FakePrinter = {
    port: 0,
    url: '',
    jobs: [],
    connections: 0,
    mode: 'print',
    readBytesPerSecond: undefined,
    async off() {
      const current = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    async on() {
      if (server) return;
      server = await listen(port);
    },
    waitForJobs(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} print jobs, got ${printer.jobs.length} in ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (printer.jobs.length >= count) {
            clearTimeout(timer);
            resolve(printer.jobs.slice(0, count));
            return true;
          }
          return false;
        };
        if (!check()) waiters.push(check);
      });
    },
    async close() {
      await printer.off();
    },
  };

  function accept(socket: Socket) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    printer.connections += 1;
    if (printer.mode === 'stall') {
      socket.pause();
      return;
    }
    const chunks: Buffer[] = [];
    const opened = Date.now();
    let read = 0;
    // how long until it has read what came so far at its pace
    const behind = () => {
      const rate = printer.readBytesPerSecond;
      return rate === undefined ? 0 : Math.max(0, (read / rate) * 1000 - (Date.now() - opened));
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      read += chunk.length;
      const wait = behind();
      if (wait > 0) {
        socket.pause();
        setTimeout(() => socket.resume(), wait);
      }
    });
    socket.on('end', () => {
      // the end of the job is read (and the printer closes its side) once the bytes before it are
      setTimeout(() => {
        if (chunks.length > 0) printer.jobs.push(Buffer.concat(chunks));
        socket.end();
        waiters.splice(0, waiters.length, ...waiters.filter((waiter) => !waiter()));
      }, behind());
    });
  }

  function listen(at: number): Promise<Server> {
    return new Promise((resolve, reject) => {
      const next = createServer({ allowHalfOpen: true }, accept);
      next.once('error', reject);
      next.listen(at, '127.0.0.1', () => resolve(next));
    });
  }

  server = await listen(0);
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(printer, { port, url: `tcp://127.0.0.1:${port}${options.paperQuery ?? ''}` });
}
