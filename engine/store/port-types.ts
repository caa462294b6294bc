/**
 * The storage port's shapes shared by both adapters (issue #23): a repository of the port is the SQLite
 * repository's interface with every method answering a Promise. The SQLite adapter wraps its synchronous
 * better-sqlite3 repositories; the PostgreSQL adapter implements the same methods with `pg`.
 */
export type Async<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/**
 * The few plain values of the store that the layers above use (issue #23): the key of a translated name in a
 * NameTable, and the name of the channel master key's file. Features import them from here, never from an
 * adapter's module (eslint.config.js).
 */
export { nameKey } from './catalog-names';
export { MASTER_KEY_FILE } from './channel-repo';
