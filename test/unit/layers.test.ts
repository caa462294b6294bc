import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The engine's layer direction is a lint error (issue #23, eslint.config.js): small probe files are written into
 * the engine's folders for the length of this test, each with one import, and ESLint's API with the project's
 * own configuration says whether that import is refused. Two more probes call the payment provider and move an
 * attempt outside the payment-lifecycle module (engine/checkout/payments/lifecycle.ts), which is refused too. An import that runs up the layers (a feature reaching
 * for a storage adapter or for HTTP, the domain for the store, one feature for a feature it may not use, a use case for the whole engine context) fails.
 */

const root = resolve(import.meta.dirname, '..', '..');
const written: string[] = [];

type Probe = { readonly folder: string; readonly source: string; readonly refused: boolean };

const probes: readonly Probe[] = [
  // a feature takes the store's port and row types, never an adapter
  { folder: 'engine/carts', source: "import { createSqliteStore } from '../store/sqlite-store';", refused: true },
  { folder: 'engine/carts', source: "import type { Db } from '../store/db';", refused: true },
  { folder: 'engine/checkout/payments', source: "import { Pool } from 'pg';", refused: true },
  { folder: 'engine/sync', source: "import { connectPostgres } from '../store/postgres/connect';", refused: true },
  { folder: 'engine/orders', source: "import type { PgStore } from '../store/postgres/store';", refused: true },
  { folder: 'engine/carts', source: "import { createCartRepo } from '../store/cart-repo';", refused: true },
  { folder: 'engine/carts', source: "import type { CartRow } from '../store/cart-repo';", refused: false },
  { folder: 'engine/carts', source: "import type { Store } from '../store/port';", refused: false },
  // features never import HTTP (legacy-v1 is an HTTP plugin and may)
  { folder: 'engine/sync', source: "import { pickLanguage } from '../http/i18n';", refused: true },
  { folder: 'engine/legacy-v1/http', source: "import { pickLanguage } from '../../http/i18n';", refused: false },
  // features import only the features the composition needs
  { folder: 'engine/orders', source: "import { placeOrder } from '../checkout/place-order';", refused: true },
  { folder: 'engine/catalog', source: "import { toV1Money } from '../legacy-v1/mapping-table';", refused: true },
  { folder: 'engine/checkout', source: "import { orderViews } from '../orders/order-view';", refused: false },
  // http imports features and the port, never an adapter
  { folder: 'engine/http', source: "import { openStore } from '../store/open';", refused: true },
  { folder: 'engine/http', source: "import { cancelOrder } from '../checkout/cancel-order';", refused: false },
  // domain, contract and store stay below
  { folder: 'engine/domain', source: "import type { Store } from '../store/port';", refused: true },
  { folder: 'engine/contract', source: "import { readCart } from '../carts/read-cart';", refused: true },
  { folder: 'engine/contract', source: "import { scaleOf } from '../domain/currencies';", refused: false },
  { folder: 'engine/store', source: "import { readCart } from '../carts/read-cart';", refused: true },
  { folder: 'engine/store/postgres', source: "import { placeOrder } from '../../checkout/place-order';", refused: true },
  // one payment-lifecycle module calls the provider and writes an attempt's state
  { folder: 'engine/checkout', source: "import type { Payments } from '../shared/context';\nexport const probe = (ctx: Payments) => ctx.payments.refund('pay_1');", refused: true },
  { folder: 'engine/checkout', source: "import type { Tx } from '../store/port';\nexport const probe = (tx: Tx) => tx.checkout.move('pay_1', { type: 'cancelled' });", refused: true },
  // a use case names what it needs (shared/context.ts); the whole context is the composition's and HTTP's
  { folder: 'engine/carts', source: "import type { EngineContext } from '../shared/context';", refused: true },
  { folder: 'engine/checkout/payments', source: "import type { EngineContext } from '../../shared/context';", refused: true },
  { folder: 'engine/carts', source: "import type { Clock, Storage } from '../shared/context';", refused: false },
  { folder: 'engine/http', source: "import type { EngineContext } from '../shared/context';", refused: false },
  // the composition roots open adapters
  { folder: 'engine/cli', source: "import { openDatabase } from '../store/db';", refused: false },
];

afterAll(() => {
  for (const path of written) rmSync(path, { force: true });
});

describe('the engine\'s layers (eslint.config.js)', () => {
  it('refuse an import that runs up the layers, and allow the ones the layers permit', async () => {
    const files = probes.map((probe, index) => {
      const path = join(root, probe.folder, `layers-probe-${process.pid}-${index}.ts`);
      writeFileSync(path, `${probe.source}\n`);
      written.push(path);
      return path;
    });
    // The layer rules need no type information: the typed rules are switched off so the probes lint in a moment.
    const eslint = new ESLint({
      cwd: root,
      overrideConfig: {
        files: ['engine/**/*.ts'],
        languageOptions: { parserOptions: { projectService: false } },
        rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off', '@typescript-eslint/await-thenable': 'off' },
      },
    });
    const results = await eslint.lintFiles(files);
    const refused = probes.map((_, index) => {
      const result = results.find((entry) => entry.filePath === files[index]);
      return (result?.messages ?? []).some((message) => ['no-restricted-imports', '@typescript-eslint/no-restricted-imports', 'no-restricted-syntax'].includes(message.ruleId ?? ''));
    });
    expect(refused.map((value, index) => `${probes[index]?.folder}: ${probes[index]?.source} → ${value ? 'refused' : 'allowed'}`))
      .toEqual(probes.map((probe) => `${probe.folder}: ${probe.source} → ${probe.refused ? 'refused' : 'allowed'}`));
  }, 60_000);
});
