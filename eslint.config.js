// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*'], message: 'engine/domain is pure: no Node built-ins.' };

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
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['electron', 'react', 'react-dom', '**/renderer/**'], message: 'The engine knows nothing of the UI or Electron.' },
        ],
      }],
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
          { group: ['**/store/**', '**/http/**', 'electron', 'react'], message: 'engine/domain depends on nothing outside itself.' },
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
    },
  },
  {
    files: ['electron/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '(^|/)engine/(?!start$)', message: 'From the engine, Electron imports only the function that starts it (engine/start).' },
          { group: ['react', 'react-dom', '**/renderer/**'], message: 'The main process knows nothing of the UI code.' },
        ],
      }],
    },
  },
);
