// Bundles `serve` with esbuild into dist/engine/serve.mjs, the engine `npm run serve` and `npm start`'s headless
// fallback run (tsx is for development only: `npm run serve:dev`). Start-up time is mostly module loading, so
// the pure-JavaScript packages the engine needs before it listens are compiled into the bundle: typebox alone
// ships as ~700 ES modules, and resolving and linking them one by one was a third of the start (~0.4 s on 2
// cores); fastify, pino and the Fastify plugins save another ~0.1 s. Left in node_modules: better-sqlite3
// (native), and what loads on first use only — pdfkit (reads its font files from its own folder), qrcode, the
// ESC/POS encoder, and Fastify's schema compilers (engine/http/schema-compilers.ts). The source map names files
// and lines without embedding the sources (`sourcesContent: false`): `--enable-source-maps` parses it at start,
// and the sources of every bundled package cost ~50 ms and ~15 MB there. The SQL migrations are copied beside
// the bundle, and the bundle is told so at build time, so it names its migrations and the built UI explicitly
// instead of resolving them from the source layout.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

/** npm packages compiled into the bundle (pure JavaScript, no files of their own read at run time). */
const INLINE = new Set(['typebox', 'fastify', 'pino', '@fastify/rate-limit', '@fastify/static', '@fastify/swagger', 'negotiator', 'currency-codes']);
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(dependencies).filter((name) => !INLINE.has(name)).flatMap((name) => [name, `${name}/*`]);

rmSync('dist/engine', { recursive: true, force: true });
await build({
  entryPoints: ['engine/cli/serve.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  external,
  sourcemap: true,
  sourcesContent: false,
  // CommonJS packages in an ES module bundle call require() for Node's built-ins
  banner: { js: "import { createRequire as __kassaRequire } from 'node:module'; const require = __kassaRequire(import.meta.url);" },
  define: { 'process.env.KASSA_BUNDLED': '"1"' },
  outfile: 'dist/engine/serve.mjs',
  logLevel: 'warning',
});
cpSync('engine/store/migrations', 'dist/engine/migrations', { recursive: true });
cpSync('engine/store/postgres/migrations', 'dist/engine/postgres-migrations', { recursive: true });
