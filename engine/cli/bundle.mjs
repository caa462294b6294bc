// Bundles `serve` with esbuild into dist/engine/serve.mjs, the engine `npm run serve` and `npm start`'s headless
// fallback run (tsx is for development only: `npm run serve:dev`). npm packages stay external (better-sqlite3 is
// native); the SQL migrations are copied beside the bundle, and the bundle is told so at build time, so it names
// its migrations and the built UI explicitly instead of resolving them from the source layout.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/engine', { recursive: true, force: true });
await build({
  entryPoints: ['engine/cli/serve.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  define: { 'process.env.KASSA_BUNDLED': '"1"' },
  outfile: 'dist/engine/serve.mjs',
  logLevel: 'warning',
});
cpSync('engine/store/migrations', 'dist/engine/migrations', { recursive: true });
