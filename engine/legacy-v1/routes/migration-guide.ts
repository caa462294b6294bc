import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { migrationGuide } from '../http/migration-guide';

/** GET /api/v1/migration-guide: the page the `Link` of every v1 answer names. Public, like the README. */
export const migrationGuideRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/migration-guide',
    { schema: { tags: ['legacy v1'], deprecated: true, summary: 'The v1 → v3 migration guide (Markdown); needs no channel', response: { 200: Type.String() } } },
    async (_request, reply) => reply.type('text/markdown; charset=utf-8').send(migrationGuide()),
  );
};
