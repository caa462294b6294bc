import { randomBytes } from 'node:crypto';
import type { Store } from '../../store/port';
import type { PspChallengeRow as ChallengeRow } from '../../store/psp-repo';
import type { CardCharge, ChargeOutcome, PaymentProvider } from './provider';

/**
 * The built-in simulated provider (contract §7). Its ledger lives in tables of its own (psp_*), written in
 * its own transactions, as a real provider's would live on its side — and so a charge's commit does not wait
 * for the till's disk (store/db.ts immediateWithoutSync): the checkout's answer waits for the disk after the
 * settlement that follows every charge, which makes the charge durable with the order, and a power cut before
 * that loses the charge with the order it was for. A real provider is a network call instead. `tok_3ds` asks for a 3-D Secure
 * challenge whose page a person (or POST /psp/challenges/{reference}) approves or rejects.
 */

export const TEST_TOKENS = ['tok_visa', 'tok_3ds', 'tok_declined', 'tok_risk', 'tok_provider_down'] as const;

/**
 * A provider that does not answer: kept out of the tokens a UI offers (a till would wait out the whole
 * deadline), for drills and tests of the deadline.
 */
export const HANG_TOKEN = 'tok_timeout';

/** How long `tok_timeout` keeps the provider silent before it decides (far beyond any deadline). */
export const DEFAULT_HANG_MS = 10 * 60 * 1000;

export interface SimulatorOptions {
  /** where the challenge pages are served, known once the engine listens */
  readonly baseUrl: () => string;
  /** simulated network latency of the provider's answer, after the charge is recorded (tests use it) */
  readonly answerDelayMs?: number;
  /** how long `tok_timeout` hangs before the simulator decides (default 10 minutes) */
  readonly hangMs?: number;
  readonly now: () => number;
}

export type ChallengeOutcome = 'approve' | 'reject';

export function createSimulator(store: Store, options: SimulatorOptions) {
  const hung = new Set<NodeJS.Timeout>();

  const token = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;

  function decide(request: CardCharge): Promise<ChargeOutcome> {
    // its own books, as a real provider's: their commit need not wait for the till's disk (see above)
    return store.transaction(async (tx): Promise<ChargeOutcome> => {
      await tx.psp.lockReference(request.reference);
      if (await tx.psp.charge(request.reference)) return { status: 'approved' };
      // The engine was told "none" for this reference and settled it: a late charge is never taken.
      if (await tx.psp.isClosed(request.reference)) return { status: 'unavailable' };
      const approve = async (): Promise<ChargeOutcome> => {
        await tx.psp.recordCharge({ reference: request.reference, amount: request.amount.amount, currency: request.amount.currency, token: request.token }, options.now());
        return { status: 'approved' };
      };
      if (request.authenticationResult !== undefined) {
        const challenge = await tx.psp.challengeByResult(request.authenticationResult);
        // Bound to the cart whose attempt raised it, the same amount, and spent by one attempt only.
        const valid = challenge && challenge.outcome === 'approve' && (challenge.used === 0 || challenge.usedBy === request.reference)
          && challenge.shopperReference === request.shopperReference
          && challenge.amount === request.amount.amount && challenge.currency === request.amount.currency;
        if (!valid) return { status: 'declined' };
        // spent by another charge since it was read: declined, as a spent result is
        if (!(await tx.psp.useChallenge(challenge.reference, request.reference))) return { status: 'declined' };
        return approve();
      }
      switch (request.token) {
        case 'tok_visa':
          return approve();
        case 'tok_3ds': {
          const reference = token('chl');
          await tx.psp.insertChallenge({ reference, amount: request.amount.amount, currency: request.amount.currency, shopperReference: request.shopperReference, attemptReference: request.reference }, options.now());
          const challengeUrl = `${options.baseUrl()}/psp/challenges/${reference}`;
          return { status: 'action_required', action: JSON.stringify({ type: 'threeDS2Challenge', challengeUrl, reference }) };
        }
        case 'tok_risk':
          return { status: 'risk_declined' };
        case 'tok_provider_down':
          return { status: 'unavailable' };
        default:
          return { status: 'declined' };
      }
    }, { durable: false });
  }

  const provider: PaymentProvider = {
    testTokens: TEST_TOKENS,
    async charge(request) {
      // tok_timeout: the provider says nothing for a long time, then decides (as tok_visa) — unless the
      // engine has asked about the reference meanwhile and was told it was not charged.
      if (request.token === HANG_TOKEN && request.authenticationResult === undefined) {
        await wait(options.hangMs ?? DEFAULT_HANG_MS);
        return decide({ ...request, token: 'tok_visa' });
      }
      const outcome = await decide(request);
      if (options.answerDelayMs) await wait(options.answerDelayMs);
      return outcome;
    },
    async status(reference) {
      return store.transaction(async (tx) => {
        await tx.psp.lockReference(reference);
        const state = (await tx.psp.charge(reference))?.state;
        if (state) return state;
        await tx.psp.close(reference, options.now());
        return 'none' as const;
      });
    },
    async refund(reference) {
      return store.transaction(async (tx) => {
        await tx.psp.lockReference(reference);
        if (!(await tx.psp.charge(reference))) return 'none' as const;
        await tx.psp.refundCharge(reference);
        return 'refunded' as const;
      });
    },
  };

  /** Waits `ms`; `stop` ends every such wait (the call then never answers, as a hung provider's would not). */
  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        hung.delete(timer);
        resolve();
      }, ms);
      hung.add(timer);
    });
  }

  return {
    provider,
    /** ends the simulated waits, before the database closes */
    stop(): void {
      for (const timer of hung) clearTimeout(timer);
      hung.clear();
    },
    challenge: (reference: string): Promise<ChallengeRow | undefined> => store.repos.psp.challenge(reference),
    /** Records a person's (or a test's) decision; deciding again returns the first decision's result. */
    completeChallenge(reference: string, outcome: ChallengeOutcome): Promise<{ authenticationResult: string; outcome: ChallengeOutcome } | undefined> {
      return store.transaction(async (tx) => {
        await tx.psp.decideChallenge(reference, outcome, token('auth'));
        const row = await tx.psp.challenge(reference);
        if (!row || row.outcome === 'pending' || row.authenticationResult === null) return undefined;
        return { authenticationResult: row.authenticationResult, outcome: row.outcome };
      });
    },
  };
}

export type Simulator = ReturnType<typeof createSimulator>;
