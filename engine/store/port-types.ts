/**
 * The storage port's shapes shared by both adapters (issue #23): a repository of the port is the SQLite
 * repository's interface with every method answering a Promise. The SQLite adapter wraps its synchronous
 * better-sqlite3 repositories; the PostgreSQL adapter implements the same methods with `pg`.
 */
export type Async<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};
