import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replies } from '../../contract/common';
import { LegacyUsage } from '../contract';
import type { Repos } from '../../store/port';

/** The v3 side of the legacy interface: how much each channel still calls v1 (admin). */
export const legacyRoutes: FastifyPluginAsyncTypebox<{ baskets: Repos['baskets']; channels: Repos['channels'] }> = async (app, { baskets, channels }) => {
  app.get(
    '/legacy/usage',
    { config: { scope: 'admin' }, schema: { tags: ['legacy v1'], summary: 'Calls to /api/v1 per channel and route', response: replies(200, LegacyUsage) } },
    async () => {
      const names = new Map((await channels.list()).map((channel) => [channel.id, channel.name]));
      return { data: (await baskets.usage()).map((row) => ({ ...row, channelName: names.get(row.channelId) ?? null })) };
    },
  );
};
