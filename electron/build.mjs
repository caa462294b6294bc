// Bundles the main process (ESM) and the preload script (CommonJS, as sandboxed preloads must be) into
// dist/electron with esbuild. npm packages stay external: they ship in node_modules (better-sqlite3 is native).
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: true, logLevel: 'warning' };
await build({ ...common, entryPoints: ['electron/main.ts'], format: 'esm', packages: 'external', outfile: 'dist/electron/main.mjs' });
await build({ ...common, entryPoints: ['electron/preload.ts'], format: 'cjs', external: ['electron'], outfile: 'dist/electron/preload.cjs' });
