import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The newest PostgreSQL bin folder that has initdb, or why there is none: `$KASSA_PG_BIN` (`none` switches
 * PostgreSQL off), else the newest `/usr/lib/postgresql/<major>/bin`. Read by the globalSetup and by
 * vitest.config.ts (whose `postgres` project runs the API suite only where there is a PostgreSQL).
 */
export function findBinaries(): string | { reason: string } {
  const chosen = process.env.KASSA_PG_BIN;
  if (chosen === 'none') return { reason: 'KASSA_PG_BIN=none' };
  if (chosen) {
    if (existsSync(join(chosen, 'initdb'))) return chosen;
    return { reason: `KASSA_PG_BIN=${chosen} has no initdb` };
  }
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => /^\d+(\.\d+)?$/.test(name)) : [];
  majors.sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  return { reason: 'no PostgreSQL binaries (no /usr/lib/postgresql/*/bin/initdb; install Debian\'s postgresql package or set KASSA_PG_BIN)' };
}
