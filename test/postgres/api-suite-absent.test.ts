import { describe, it } from 'vitest';
import { postgresSuite } from '../helpers/postgres';

/**
 * The `postgres` project's only file on a machine without PostgreSQL (vitest.config.ts): the API suite is not
 * run there, and this says so — skipped, with the reason in its name — instead of passing in silence.
 */
describe.skip(postgresSuite('the API suite (test/api/**) on PostgreSQL'), () => {
  it('runs every API test file against a throwaway PostgreSQL', () => undefined);
});
