import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EngineError, type ErrorCode } from '../../domain/errors';
import type { Scope } from '../../domain/scopes';
import { MASTER_KEY_FILE } from '../../store/port-types';
import type { Repos } from '../../store/port';

/**
 * Channel authentication of v1 (contract §11): `X-Channel-Id` names the channel, `X-Checksum` is the
 * lowercase hex HMAC-SHA256, keyed with the channel's secret, of `METHOD\npath-with-query\nbody`, the body
 * exactly as sent. The checksum binds method, path, query and body, so a checksum replayed over another
 * body, path or method fails. An exact replay of the same request passes: v1 has no nonce or timestamp to
 * bind, and every v1 write is idempotent by construction (upsert of the whole basket, a promotion applied
 * twice stays one, a cleared basket answers 404). Neither header is ever logged.
 *
 * Installed inside the v1 plugin only. The channel is looked up before the body is read (an unknown
 * channel never gets its body parsed); the checksum is checked before the body is judged, so a malformed
 * or wrongly typed body from a stranger answers 401, not 400.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a v1 route: what a channel may do there, in scope terms (a channel holds catalog:read and carts:write) */
    channelScope?: Scope;
  }
  interface FastifyRequest {
    /** the channel, once its checksum matched */
    channelId?: string;
    v1Channel?: { id: string; secret: string };
    v1RawBody?: string;
    v1BodyProblem?: ErrorCode;
  }
}

export const CHANNEL_HEADER = 'x-channel-id';
export const CHECKSUM_HEADER = 'x-checksum';

/** What a v1 client computes: exported for the tests and docs/v1.md's one-liner to agree with. */
export function checksumOf(secret: string, method: string, pathWithQuery: string, body: string): string {
  return createHmac('sha256', secret).update(`${method}\n${pathWithQuery}\n${body}`).digest('hex');
}

export function installChannelAuth(app: FastifyInstance, channels: Repos['channels']): void {
  // The body is kept as sent, for the checksum; JSON is parsed by Fastify's own parser (prototype
  // poisoning refused). Any other media type is read too, and refused after the checksum (415).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    request.v1RawBody = text;
    void parseJson(request, text, (error, parsed) => {
      if (error) request.v1BodyProblem = 'MALFORMED_JSON';
      done(null, error ? undefined : parsed);
    });
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, raw, done) => {
    request.v1RawBody = typeof raw === 'string' ? raw : raw.toString('utf8');
    request.v1BodyProblem = 'UNSUPPORTED_MEDIA_TYPE';
    done(null, undefined);
  });

  app.addHook('onRequest', async (request) => {
    const id = request.headers[CHANNEL_HEADER];
    const found = typeof id === 'string' && /^ch_[A-Za-z0-9_-]{1,64}$/.test(id) ? await channels.secret(id) : undefined;
    if (found && 'mismatch' in found) request.log.warn({ channelId: id }, `channel secret does not match this install's master key (was ${MASTER_KEY_FILE} replaced?)`);
    if (!found || !('secret' in found) || typeof id !== 'string') throw new EngineError('INVALID_API_KEY');
    request.v1Channel = { id, secret: found.secret };
  });

  app.addHook('preValidation', async (request) => {
    const channel = request.v1Channel;
    if (!channel || !checksumMatches(request, channel.secret)) throw new EngineError('INVALID_API_KEY');
    request.channelId = channel.id;
    if (request.v1BodyProblem) throw new EngineError(request.v1BodyProblem);
  });
}

function checksumMatches(request: FastifyRequest, secret: string): boolean {
  const sent = request.headers[CHECKSUM_HEADER];
  if (typeof sent !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sent)) return false;
  const expected = checksumOf(secret, request.method, request.url, request.v1RawBody ?? '');
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(sent.toLowerCase(), 'hex'));
}
