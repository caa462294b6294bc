import { closeSync, existsSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import type { Db } from './db';

/**
 * Group commit. Every write transaction of the engine commits into SQLite's write-ahead log without waiting
 * for the disk (synchronous = NORMAL), and nothing is acknowledged before the log is on the disk: a write
 * request's answer, a payment provider's call, a delivery to the hub and a job sent to a printer each wait for
 * `whenDurable()`, one fdatasync of the log file that covers every commit made before it started. Requests that
 * commit while a sync runs share the next one, so 50 tills selling at once wait for the disk a few times, not
 * 50 times, and the event loop goes on working while the disk syncs (libuv's thread pool) instead of stopping
 * for every commit.
 *
 * Why nothing acknowledged is lost at a power cut: SQLite appends each commit to the log, whose frames carry
 * a running checksum, and on recovery keeps the log up to the last whole commit — a prefix of the commits in
 * the order they were made. A commit acknowledged after a sync that started after it is inside that prefix.
 * What a power cut can lose is only what nobody was told (and with it anything after it, which was not told
 * either). SQLite still syncs the log before it copies pages into the database (a checkpoint) and the
 * database after, so the file never holds a page whose log is not on the disk. A process crash loses nothing:
 * the operating system holds what was written.
 *
 * Only in WAL mode; with a rollback journal (a file system that refused WAL) every commit waits for the disk
 * as before (synchronous = FULL) and `whenDurable()` has nothing to wait for.
 */
export interface Durability {
  /**
   * Resolves once every commit made before the call is on the disk. Rejects with DiskSyncError from the first
   * failed sync on, for good: after a failed fdatasync Linux marks the unwritten pages clean and a later sync
   * succeeds without them, so nothing after a failure may be called durable (the engine then answers every
   * request with an error until it is restarted and SQLite recovers from what is on the disk).
   */
  whenDurable(): Promise<void>;
  /** log syncs done so far (a group commit serves many requests with one) */
  readonly syncs: number;
  /** syncs what was committed until now (callers waiting are answered), then closes the log file's descriptor */
  close(): Promise<void>;
}

export class DiskSyncError extends Error {}

const NOTHING_TO_WAIT_FOR: Durability = { whenDurable: () => Promise.resolve(), syncs: 0, close: () => Promise.resolve() };

export function groupCommit(db: Db): Durability {
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') return NOTHING_TO_WAIT_FOR;
  // any descriptor of the file syncs it; SQLite keeps the log file while a connection is open
  const fd = openLog(db);
  if (fd === undefined) return NOTHING_TO_WAIT_FOR;
  db.pragma('synchronous = NORMAL');
  // rows written by this connection since it opened (triggers' too, rolled back or not): a caller that wrote
  // nothing since a sync started that has finished has nothing to wait for — a refused request answers at once
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  // every commit before this point waited for the disk itself (FULL)
  let durableUpTo = changes.get() ?? 0;
  let syncs = 0;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  let failed: DiskSyncError | undefined;

  const sync = (): Promise<void> => {
    const covers = changes.get() ?? 0;
    return new Promise<void>((resolve, reject) => {
      fdatasync(fd, (error) => {
        syncs += 1;
        if (error) {
          failed ??= new DiskSyncError(`the database log could not be written to the disk: ${error.message}`);
          reject(failed);
        } else {
          durableUpTo = Math.max(durableUpTo, covers);
          resolve();
        }
      });
    });
  };

  function whenDurable(): Promise<void> {
    if (failed) return Promise.reject(failed);
    if (closed) return Promise.reject(new Error('the database is closed'));
    if ((changes.get() ?? 0) <= durableUpTo) return Promise.resolve();
    if (!running) {
      running = sync().finally(() => {
        running = undefined;
      });
      return running;
    }
    // A sync under way may have started before this caller's commit: it waits for the next one, which all
    // callers until then share.
    next ??= running.then(
      () => {
        next = undefined;
        return whenDurable();
      },
      () => {
        next = undefined;
        return whenDurable();
      },
    );
    return next;
  }

  return {
    whenDurable,
    get syncs() {
      return syncs;
    },
    close(): Promise<void> {
      closing ??= (async () => {
        // What was committed until now gets its sync: a caller waiting for the next one is answered, not
        // refused. A sync under way must not meet a closed (or reused) descriptor.
        await whenDurable().catch(() => undefined);
        // a caller during the wait may have started another sync: the descriptor closes only with none under way
        while (running || next) await Promise.allSettled([running, next]);
        closed = true;
        closeSync(fd);
      })();
      return closing;
    },
  };
}

/**
 * The log file's descriptor, once a sync through it has worked; SQLite creates the file with the first read of
 * a WAL database. Opened for writing (nothing is written through it): Windows flushes a file only through a
 * handle that may write. Without one, every commit keeps waiting for the disk itself (FULL): slower, never
 * less safe.
 */
function openLog(db: Db): number | undefined {
  const path = `${db.name}-wal`;
  if (!existsSync(path)) db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
  if (!existsSync(path)) return undefined;
  const fd = openSync(path, 'r+');
  try {
    fdatasyncSync(fd);
    return fd;
  } catch {
    closeSync(fd);
    return undefined;
  }
}
