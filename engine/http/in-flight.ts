import type { FastifyInstance } from 'fastify';

/**
 * The requests the engine is still working on. A client that goes away (a till switched off, a kiosk's page
 * reloaded) closes its connection, so the HTTP server's close no longer waits for it, yet its handler runs on:
 * a checkout waiting for the payment provider, then settling the order. The engine closes its database only
 * once they are done (start.ts), so a clean shutdown leaves nothing half-done for the next start's recovery.
 */
export interface InFlight {
  /** pieces of work begun and not ended */
  readonly running: number;
  /** counts one piece of work; the function returned ends it (a second call does nothing) */
  begin(): () => void;
  /** resolves with 0 once nothing is running, or after `ms` with the number still running */
  settled(ms: number): Promise<number>;
}

export function inFlight(): InFlight {
  let count = 0;
  let wake: (() => void) | undefined;
  return {
    get running() {
      return count;
    },
    begin() {
      count += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        count -= 1;
        if (count === 0) wake?.();
      };
    },
    async settled(ms) {
      const deadline = Date.now() + ms;
      for (;;) {
        if (count === 0) {
          // A handler's answer reaches its onSend hooks (the wait for the disk, counted too) within the same
          // turn of the event loop: nothing running after one more turn is nothing running.
          await new Promise((resolve) => setImmediate(resolve));
          if (count === 0) return 0;
        }
        const left = deadline - Date.now();
        if (left <= 0) return count;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    },
  };
}

/**
 * Counts every route handler's run until its promise settles, whatever the client does meanwhile. Installed
 * before any route is registered (an onRoute hook sees only the routes added after it).
 */
export function trackHandlers(app: FastifyInstance, work: InFlight): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function tracked(this: FastifyInstance, request, reply) {
      const end = work.begin();
      try {
        const result: unknown = handler.call(this, request, reply);
        if (result instanceof Promise) result.then(end, end);
        else end();
        return result;
      } catch (error) {
        end();
        throw error;
      }
    };
  });
}
