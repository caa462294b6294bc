import type { Async } from '../port-types';
import type { PspChallengeRecord, PspChallengeRow, PspChargeRecord, PspRepo } from '../psp-repo';
import type { Queryable } from './queryable';

/**
 * PostgreSQL twin of store/psp-repo.ts: the simulated provider's ledger. Runs in the caller's transaction.
 * Concurrency: a charge and a status query for one reference (check "charged?" / "closed?", then write) are made
 * atomic by lockReference — a transaction-scoped advisory lock on the reference, which the simulator takes first
 * in each of its transactions; the one-statement writes are atomic on their own (ON CONFLICT DO NOTHING, and
 * conditional UPDATEs for a challenge's decision and for spending its result).
 */

const CHALLENGE_COLUMNS = `reference, amount, currency, outcome, authentication_result AS "authenticationResult",
  shopper_reference AS "shopperReference", used_by AS "usedBy", used`;

export function createPgPspRepo(q: Queryable): Async<PspRepo> {
  const run = async (sql: string, values: unknown[]): Promise<undefined> => {
    await q.query(sql, values);
    return undefined;
  };
  const challenge = async (where: string, value: string): Promise<PspChallengeRow | undefined> =>
    (await q.query<PspChallengeRow>(`SELECT ${CHALLENGE_COLUMNS} FROM psp_challenges WHERE ${where} = $1`, [value])).rows[0];

  return {
    /** waits for any other transaction deciding about `reference`, and keeps others waiting until this one ends */
    lockReference: (reference: string) => run("SELECT pg_advisory_xact_lock(hashtextextended('psp:' || $1, 0))", [reference]),
    async charge(reference: string): Promise<{ state: 'approved' | 'refunded' } | undefined> {
      return (await q.query<{ state: 'approved' | 'refunded' }>('SELECT state FROM psp_charges WHERE reference = $1', [reference])).rows[0];
    },
    recordCharge: (charge: PspChargeRecord, now: number) => run(`INSERT INTO psp_charges (reference, amount, currency, token, state, created_at)
      VALUES ($1, $2, $3, $4, 'approved', $5) ON CONFLICT DO NOTHING`, [charge.reference, charge.amount, charge.currency, charge.token, now]),
    refundCharge: (reference: string) => run("UPDATE psp_charges SET state = 'refunded' WHERE reference = $1", [reference]),
    async isClosed(reference: string): Promise<boolean> {
      return (await q.query('SELECT reference FROM psp_closed_references WHERE reference = $1', [reference])).rows.length > 0;
    },
    close: (reference: string, now: number) => run('INSERT INTO psp_closed_references (reference, closed_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [reference, now]),
    insertChallenge: (record: PspChallengeRecord, now: number) => run(`INSERT INTO psp_challenges
      (reference, amount, currency, outcome, shopper_reference, attempt_reference, created_at) VALUES ($1, $2, $3, 'pending', $4, $5, $6)`,
    [record.reference, record.amount, record.currency, record.shopperReference, record.attemptReference, now]),
    challenge: (reference: string) => challenge('reference', reference),
    challengeByResult: (authenticationResult: string) => challenge('authentication_result', authenticationResult),
    decideChallenge: (reference: string, outcome: 'approve' | 'reject', authenticationResult: string) => run(
      "UPDATE psp_challenges SET outcome = $1, authentication_result = $2 WHERE reference = $3 AND outcome = 'pending'", [outcome, authenticationResult, reference]),
    /** conditional UPDATE: of two charges spending one challenge result at once, only the first gets true */
    async useChallenge(reference: string, usedBy: string): Promise<boolean> {
      const used = await q.query('UPDATE psp_challenges SET used = 1, used_by = $1 WHERE reference = $2 AND (used = 0 OR used_by = $1)', [usedBy, reference]);
      return (used.rowCount ?? 0) > 0;
    },
  };
}
