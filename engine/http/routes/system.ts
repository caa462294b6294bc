import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '../../contract/common';
import { EngineError } from '../../domain/errors';

/** What health needs of the database: its kind and a question it answers when it is there. */
export interface HealthDatabase {
  readonly kind: 'sqlite' | 'postgres';
  /** resolves when the database answers a trivial query */
  ping(): Promise<void>;
}

/** how long health waits for the database's answer before it says the database is unavailable */
export const HEALTH_PING_TIMEOUT_MS = 2_000;

const Health = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Object(
    { kind: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]), status: Type.Literal('ok') },
    { description: 'the database this engine process works on (never its URL) and that it answered just now' },
  ),
});

/**
 * Public endpoints: health (contract §1, §16) and the OpenAPI document generated from the route schemas. Health
 * asks the database a trivial question, bounded at 2 s: 200 when it answers, else 503 DATABASE_UNAVAILABLE in
 * the error envelope — what a load balancer in front of several engine processes takes one out of rotation by.
 */
export const systemRoutes: FastifyPluginAsyncTypebox<{ database: HealthDatabase }> = async (app, { database }) => {
  app.get(
    '/health',
    { schema: { tags: ['system'], summary: 'Liveness and the database; needs no key', response: { 200: Health, 503: ErrorBody } } },
    async () => {
      await answersWithin(database, HEALTH_PING_TIMEOUT_MS);
      return { status: 'ok' as const, database: { kind: database.kind, status: 'ok' as const } };
    },
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};

async function answersWithin(database: HealthDatabase, ms: number): Promise<void> {
  const unavailable = new EngineError('DATABASE_UNAVAILABLE', { details: { database: { kind: database.kind, status: 'unavailable' } } });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable), ms);
  });
  try {
    await Promise.race([database.ping(), late]);
  } catch {
    // no answer in time, a lost connection, an error of the server: for health, all mean the database is not there
    throw unavailable;
  } finally {
    clearTimeout(timer);
  }
}
