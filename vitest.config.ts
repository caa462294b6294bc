import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // one throwaway PostgreSQL cluster for the whole run (absent binaries: its tests skip with the reason)
    globalSetup: ['./test/helpers/postgres-setup.ts'],
    // API tests start real engines on loopback with real SQLite files; two cores, so keep files in parallel but bounded.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
