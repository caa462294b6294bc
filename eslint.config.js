// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

import { builtinModules } from 'node:module';

// Built-ins by either spelling: `node:fs` and bare `fs` (and `fs/promises`).
const nodeBuiltins = {
  group: ['node:*', ...builtinModules.flatMap((name) => [name, `${name}/*`])],
  message: 'engine/domain is pure: no Node built-ins, no I/O.',
};
const httpLayer = {
  group: ['fastify', 'fastify/*', '@fastify/*', '**/http/*', '**/http'],
  message: 'Only engine/http/ and engine/start.ts know HTTP: use cases, sync and the CLI take what they need as plain values and types from engine/contract.',
};
const uiBoundary = { group: ['electron', 'react', 'react-dom', '**/renderer/**'], message: 'The engine knows nothing of the UI or Electron.' };

// --- The engine's layers (issue #23) ----------------------------------------------------------------
// domain ← contract ← store (port, then adapters) ← features ← http ← start.ts and cli/ (the composition roots).
// Only the composition roots import an adapter; a feature takes the store's port and its row types.
const adapters = {
  group: ['better-sqlite3', 'pg', 'pg-*', '**/store/sqlite-store', '**/store/postgres', '**/store/postgres/*', '**/store/db', '**/store/open', '**/store/durability', '**/store/migrations/*'],
  message: 'Only engine/start.ts and engine/cli/ (the composition roots) import a storage adapter: take the store port (engine/store/port) instead.',
};
const storeValues = {
  // (an adapter's module is left to `adapters`, which refuses type imports too)
  group: ['**/store/*', '!**/store/port', '!**/store/port-types', ...adapters.group.filter((name) => name.startsWith('**/store/')).map((name) => `!${name}`)],
  allowTypeImports: true,
  message: 'Above the store, import engine/store/port and engine/store/port-types; from the repositories\' modules only their row types (import type).',
};
/**
 * The feature folders and the other features each may import (its use cases, to compose them). Every feature
 * imports shared/, domain/, contract/ and the store port; nothing else is allowed until it is written here.
 * - carts: a cart is priced against the catalog (catalog/price-context) and takes an allocation's share.
 * - catalog: a channel's catalog shows its allocation's share (allocations/allocation-share).
 * - checkout: begins from a cart (carts/cart-access, cart-view) and answers an order (orders/order-view); journals
 *   its orders and cancellations (journal/append); signs its tickets (tickets/sign-tickets, issue #26).
 * - journal: the hash-chained journal (issue #25); appended to by the features that record money (checkout, shifts).
 * - shifts: shifts and the cash drawer (issue #25); journals its openings, closings and movements (journal/append).
 * - printing: prints an order (orders/read-order) and a shift's X or Z report (shifts/report, issue #25).
 * - sync: the hub's import replays a sale (carts, checkout), the worker pulls the catalog, delivers orders and
 *   plans holdings (orders, catalog, allocations); a hub records its terminals' check-ins and a terminal implements
 *   the check-ins' CheckinHub port (checkins, issue #26); a hub learns its terminals' ticket keys (tickets).
 * - legacy-v1: the v1 facade calls the v3 cart use cases and reads the catalog's references; it is also an HTTP
 *   plugin, so it may import engine/http and fastify.
 * - shared: the engine context and helpers every feature uses; it names features' types only.
 */
const featureEdges = {
  carts: ['catalog', 'allocations'],
  catalog: ['allocations'],
  allocations: [],
  checkout: ['carts', 'orders', 'journal', 'tickets'],
  orders: [],
  printing: ['orders', 'shifts'],
  sync: ['carts', 'catalog', 'checkout', 'orders', 'allocations', 'checkins', 'tickets'],
  'legacy-v1': ['carts', 'catalog'],
  giftcards: ['carts'],
  tickets: [],
  staff: [],
  journal: [],
  shifts: ['journal'],
  checkins: [],
  shared: [],
};
const featureNames = Object.keys(featureEdges);
/**
 * Single modules of another feature a feature may import beyond its edges: orders derive an order's payment from
 * its attempt through the payment lifecycle's view (issue #23: the lifecycle owns payment state and its view).
 */
const featureModules = {
  orders: ['checkout/payments/lifecycle'],
  // gift cards (issue #24): the ledger is written by the payment lifecycle alone; balances, quotes and a hub's holds ask it
  giftcards: ['checkout/payments/lifecycle'],
};
/** The patterns that keep one feature folder to its allowed edges (and the single modules of featureModules). */
function featurePatterns(/** @type {keyof typeof featureEdges} */ name) {
  const allowed = /** @type {Record<string, string[]>} */ (featureModules)[name] ?? [];
  const others = featureNames.filter((other) => other !== name && other !== 'shared' && !featureEdges[name].includes(other));
  const message = `engine/${name}/ imports no other feature than ${featureEdges[name].join(', ') || 'none'}${allowed.length ? ` (and ${allowed.join(', ')})` : ''} (the allowed edges are listed in eslint.config.js).`;
  const whole = others.filter((other) => !allowed.some((module) => module.startsWith(`${other}/`)));
  const partly = others.filter((other) => !whole.includes(other));
  return [
    {
      group: whole.map((other) => `**/${other}/*`).concat(whole.map((other) => `**/${other}/**/*`)),
      ...(name === 'shared' && { allowTypeImports: true }),
      message,
    },
    // a feature one module of which is allowed: any other of its modules is refused
    ...partly.map((other) => ({
      regex: `(^|/)${other}/(?!(${allowed.filter((module) => module.startsWith(`${other}/`)).map((module) => module.slice(other.length + 1)).join('|')})$)`,
      message,
    })),
  ];
}
/**
 * A use case names what it needs (shared/context.ts: Storage, Clock, Payments, …); the whole EngineContext is the
 * composition root's (engine/start.ts) and the HTTP plumbing's, which hand each use case its part.
 */
const wholeContext = {
  regex: '(^|/)(shared/)?context$',
  importNames: ['EngineContext'],
  message: 'A use case takes only what it needs: name its dependencies with the types of shared/context.ts (Storage, Clock, …), not EngineContext.',
};
/** Relative imports that leave a folder `depth` levels below engine/ for anything but the named layers. */
const onlyLayers = (/** @type {number} */ depth, /** @type {string[]} */ layers, /** @type {string} */ message) =>
  ({ regex: `^${'\\.\\./'.repeat(depth)}${layers.length ? `(?!${layers.map((layer) => `${layer}/`).join('|')})` : ''}`, message });
const restrict = (/** @type {object[]} */ patterns, /** @type {object[]} */ paths = []) => ({
  'no-restricted-imports': 'off',
  '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }],
});

/** The flat-config blocks of the layer rules, most general first (a later block replaces an earlier one's rule). */
function engineLayers() {
  return [
    { files: ['engine/**'], rules: restrict([uiBoundary, httpLayer]) },
    { files: ['engine/http/**', 'engine/start.ts'], rules: restrict([uiBoundary]) },
    { files: ['engine/http/**'], rules: restrict([uiBoundary, adapters, storeValues]) },
    {
      files: ['engine/domain/**'],
      rules: restrict([
        nodeBuiltins, httpLayer, uiBoundary,
        { group: ['better-sqlite3', 'pg', 'pino'], message: 'engine/domain depends on nothing outside itself.' },
        onlyLayers(1, [], 'engine/domain depends on nothing outside itself.'),
      ], [
        { name: 'better-sqlite3', message: 'engine/domain is pure: storage lives in engine/store.' },
        { name: 'fastify', message: 'engine/domain is pure: HTTP lives in engine/http.' },
      ]),
    },
    { files: ['engine/contract/**'], rules: restrict([uiBoundary, httpLayer, onlyLayers(1, ['domain'], 'engine/contract imports only engine/domain.')]) },
    { files: ['engine/store/*'], rules: restrict([uiBoundary, httpLayer, onlyLayers(1, ['domain', 'contract'], 'engine/store imports only engine/domain and engine/contract (and its own modules).')]) },
    { files: ['engine/store/postgres/**'], rules: restrict([uiBoundary, httpLayer, onlyLayers(2, ['domain', 'contract'], 'engine/store imports only engine/domain and engine/contract (and its own modules).')]) },
    {
      // One payment-lifecycle module (engine/checkout/payments/lifecycle.ts) calls the provider and writes an
      // attempt's state; everything else asks it.
      files: ['engine/**/*.ts'],
      ignores: ['engine/checkout/payments/lifecycle.ts', 'engine/store/**'],
      rules: {
        'no-restricted-syntax': ['error',
          { selector: "MemberExpression[property.name='payments'][object.name='ctx']", message: 'Only engine/checkout/payments/lifecycle.ts calls the payment provider.' },
          { selector: "CallExpression > MemberExpression.callee[property.name=/^(move|insertAttempt)$/][object.property.name='checkout']", message: 'Only engine/checkout/payments/lifecycle.ts writes a payment attempt\'s state.' },
        ],
      },
    },
    ...featureNames.map((name) => ({
      files: [`engine/${name}/**`],
      rules: restrict([uiBoundary, ...(name === 'legacy-v1' ? [] : [httpLayer]), adapters, storeValues, wholeContext, ...featurePatterns(/** @type {keyof typeof featureEdges} */ (name))]),
    })),
  ];
}

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'release/', 'data/', 'bench/results/', 'test-results/'] },
  js.configs.recommended,
  { files: ['**/*.mjs'], languageOptions: { globals: { console: 'readonly', process: 'readonly', fetch: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', AbortSignal: 'readonly' } } },
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  // The engine's layers (issue #23), as lint errors: see `engineLayers` above.
  ...engineLayers(),
  {
    files: ['renderer/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'electron', 'better-sqlite3', 'fastify'], message: 'The renderer is a web page: no Node, Electron or server code.' },
          { regex: '(^|/)engine/(?!contract/)', message: 'From the engine the renderer imports only its shared schemas.' },
        ],
      }],
      // The network is reached through renderer/src/api only (retries, keys and errors live there).
      'no-restricted-globals': ['error', { name: 'fetch', message: 'fetch only in renderer/src/api/: use the typed client.' }],
      'no-restricted-properties': ['error',
        { object: 'window', property: 'fetch', message: 'fetch only in renderer/src/api/: use the typed client.' },
        { object: 'globalThis', property: 'fetch', message: 'fetch only in renderer/src/api/: use the typed client.' },
      ],
    },
  },
  {
    // The engine is asynchronous through its storage port (issue #23): a Promise that is neither awaited nor
    // handled is a write that may not have happened, or an error nobody sees.
    files: ['engine/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['renderer/src/api/**'],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-properties': 'off' },
  },
  {
    // Components draw what they are given: no API client, no stores (types of the contract are fine).
    files: ['renderer/src/components/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'electron', 'better-sqlite3', 'fastify'], message: 'The renderer is a web page: no Node, Electron or server code.' },
          { regex: '(^|/)engine/(?!contract/)', message: 'From the engine the renderer imports only its shared schemas.' },
          { group: ['**/api/*', '**/api', '**/stores/*', '**/stores'], allowTypeImports: true, message: 'Components import neither api/ nor stores/: screens pass them data and callbacks.' },
        ],
      }],
    },
  },
  {
    files: ['electron/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '(^|/)engine/(?!start$|cli/v8-flags$|staff/pin$)', message: 'From the engine, Electron imports only the function that starts it (engine/start), the flags its process is started with (engine/cli/v8-flags, a leaf the launcher reads without loading the engine) and the staff PIN\'s hashing (engine/staff/pin, a leaf: one implementation for the kiosk\'s staff exit and the box office\'s sign-in).' },
          { group: ['react', 'react-dom', '**/renderer/**'], message: 'The main process knows nothing of the UI code.' },
        ],
      }],
    },
  },
);
