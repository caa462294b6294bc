import { configDefaults, defineConfig } from 'vitest/config';
import { findBinaries } from './test/helpers/postgres-binaries.ts';

/** where there is no PostgreSQL, the `postgres` project runs only the file that reports its suite skipped, with the reason */
const postgresPresent = typeof findBinaries() === 'string';

export default defineConfig({
  test: {
    // one throwaway PostgreSQL cluster for the whole run, shared by both projects (absent binaries: its tests skip with the reason)
    globalSetup: ['./test/helpers/postgres-setup.ts'],
    // API tests start real engines on loopback with real databases; files in parallel but bounded (for the whole run,
    // both projects together). Three on two cores: much of a file's time is waiting (a hold running out, a sweeper, a
    // retry step at its shipped length, a child process starting), and a third file fills it.
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/postgres/**'] },
      },
      {
        // the API suite again, every engine on a fresh database of the run's PostgreSQL (test/helpers/engine.ts)
        extends: true,
        test: {
          name: 'postgres',
          include: postgresPresent ? ['test/api/**/*.test.ts'] : ['test/postgres/api-suite-absent.test.ts'],
          env: { KASSA_TEST_DATABASE: 'postgres' },
        },
      },
    ],
  },
});
