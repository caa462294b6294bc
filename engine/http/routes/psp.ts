import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { EngineError } from '../../domain/errors';
import { scaleOf } from '../../domain/currencies';
import { challengePage } from '../../checkout/payments/challenge-page';
import type { Simulator } from '../../checkout/payments/simulator';
import { ErrorBody } from '../../contract/common';
import { ChallengeDecision, ChallengeParams } from '../../contract/order';

/**
 * The simulated provider's 3-D Secure challenge (contract §7): a page for a person, and the automation
 * endpoint. The unguessable reference is the only credential, as with a real issuer's challenge URL.
 */
export const pspRoutes: FastifyPluginAsyncTypebox<{ simulator: Simulator }> = async (app, { simulator }) => {
  const tags = ['payment simulator'];

  app.get('/psp/challenges/:reference', { schema: { tags, summary: 'The challenge page', params: ChallengeParams } }, async (request, reply) => {
    const challenge = await simulator.challenge(request.params.reference);
    if (!challenge) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'reference' });
    const nonce = randomBytes(16).toString('base64');
    const scale = scaleOf(challenge.currency);
    const amountText = `${(challenge.amount / 10 ** scale).toFixed(scale)} ${challenge.currency}`;
    return reply
      .header('content-security-policy', `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; frame-ancestors 'self'`)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(challengePage(challenge.reference, amountText, nonce));
  });

  app.post(
    '/psp/challenges/:reference',
    {
      schema: {
        tags,
        summary: 'Approve or reject a challenge (automation)',
        params: ChallengeParams,
        body: ChallengeDecision,
        response: { 200: Type.Object({ authenticationResult: Type.String(), outcome: Type.String() }), '4xx': ErrorBody },
      },
    },
    async (request) => {
      const result = await simulator.completeChallenge(request.params.reference, request.body.outcome);
      if (!result) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'reference' });
      return result;
    },
  );
};
