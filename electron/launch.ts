import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_PROCESS_FLAGS } from '../engine/cli/v8-flags';
import { electronBinary } from './runtime';

/**
 * `npm start` (contract §1): the desktop app; where the Electron runtime cannot be obtained, one line that
 * says so, then the same app headless, exactly as `npm run serve` runs it.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

function runtime(): { path: string } | { missing: string } {
  const found = electronBinary();
  if ('path' in found) return found;
  // One quiet try at the download the electron package would make on first launch.
  try {
    const install = join(dirname(createRequire(import.meta.url).resolve('electron/package.json')), 'install.js');
    spawnSync(process.execPath, [install], { stdio: 'ignore', timeout: 60_000 });
  } catch {
    return found;
  }
  const again = electronBinary();
  return 'path' in again ? again : found;
}

function run(command: string, commandArgs: string[]): void {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const found = runtime();
if ('path' in found) {
  const build = spawnSync(process.execPath, [join(root, 'electron', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  run(found.path, [join(root, 'dist', 'electron', 'main.mjs'), ...args]);
} else {
  console.log(`Desktop app unavailable: ${found.missing}; serving the same app headless instead.`);
  // The same esbuild bundle `npm run serve` runs (engine/cli/bundle.mjs), built fresh: well under a second.
  const bundle = spawnSync(process.execPath, [join(root, 'engine', 'cli', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
  if (bundle.status !== 0) process.exit(bundle.status ?? 1);
  run(process.execPath, [...ENGINE_PROCESS_FLAGS, '--enable-source-maps', join(root, 'dist', 'engine', 'serve.mjs'), ...args]);
}
