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
  {
    files: ['engine/**'],
    ignores: ['engine/http/**', 'engine/legacy-v1/**', 'engine/start.ts', 'engine/domain/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [uiBoundary, httpLayer] }],
    },
  },
  {
    files: ['engine/http/**', 'engine/legacy-v1/**', 'engine/start.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [uiBoundary] }],
    },
  },
  {
    files: ['engine/domain/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'better-sqlite3', message: 'engine/domain is pure: storage lives in engine/store.' },
          { name: 'fastify', message: 'engine/domain is pure: HTTP lives in engine/http.' },
        ],
        patterns: [
          nodeBuiltins,
          httpLayer,
          uiBoundary,
          { group: ['**/store/**', '**/http/**', '**/use-cases/**', '**/payments/**', '**/sync/**', '**/cli/**', 'better-sqlite3', 'pino'], message: 'engine/domain depends on nothing outside itself.' },
        ],
      }],
    },
  },
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
