// Bundles `serve` with esbuild into dist/engine/serve.mjs, the engine `npm run serve` and `npm start`'s headless
// fallback run (tsx is for development only: `npm run serve:dev`). npm packages stay external (better-sqlite3 is
// native, pdfkit reads its font files from its own folder) except typebox: it ships as ~700 ES modules, and
// resolving and linking them one by one was a third of the engine's start-up (~0.4 s on 2 cores); bundled, they
// load in ~20 ms. The SQL migrations are copied beside the bundle, and the bundle is told so at build time, so it
// names its migrations and the built UI explicitly instead of resolving them from the source layout.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

/** npm packages compiled into the bundle (pure JavaScript, no files of their own read at run time). */
const INLINE = new Set(['typebox']);
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
  define: { 'process.env.KASSA_BUNDLED': '"1"' },
  outfile: 'dist/engine/serve.mjs',
  logLevel: 'warning',
});
cpSync('engine/store/migrations', 'dist/engine/migrations', { recursive: true });
