import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Where the Electron runtime binary is, without triggering its download: the `electron` package fetches
 * the binary on first use, from a host some machines cannot reach. Answers the path, or why there is none.
 */
export function electronBinary(): { path: string } | { missing: string } {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  if (override) return { path: join(override, relative ?? 'electron') };
  if (!relative) return { missing: 'the Electron runtime binary has not been downloaded (its host is not reachable from here)' };
  const binary = join(packageDir, 'dist', relative);
  return existsSync(binary) ? { path: binary } : { missing: `the Electron runtime binary is missing (${binary})` };
}
