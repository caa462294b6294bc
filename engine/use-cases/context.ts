import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../store/db';
import { createCatalogRepo } from '../store/catalog-repo';
import { createCartRepo } from '../store/cart-repo';
import { createCatalogWriter } from '../store/catalog-writer';

/** Everything a use case needs, built once per engine: the database, its prepared repositories, a clock. */
export interface EngineContext {
  readonly db: Db;
  readonly catalog: ReturnType<typeof createCatalogRepo>;
  readonly carts: ReturnType<typeof createCartRepo>;
  readonly writeCatalog: ReturnType<typeof createCatalogWriter>;
  /** epoch milliseconds; tests and the sync worker may move it */
  readonly now: () => number;
  readonly holdMs: number;
  readonly newId: (prefix: 'crt' | 'itm') => string;
}

export function createContext(db: Db, options: { holdSeconds: number; now?: () => number }): EngineContext {
  return {
    db,
    catalog: createCatalogRepo(db),
    carts: createCartRepo(db),
    writeCatalog: createCatalogWriter(db),
    now: options.now ?? Date.now,
    holdMs: options.holdSeconds * 1000,
    newId: (prefix) => (prefix === 'crt' ? randomUUID() : `itm_${randomBytes(12).toString('base64url')}`),
  };
}
