import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replies } from '../../contract/common';
import { StaffSession, StaffSignInBody } from '../../contract/staff';
import { createPinGuard } from '../../staff/pin';
import { signIn, signOut } from '../../staff/sessions';
import type { Repos } from '../../store/port';
import { callerOf } from '../auth';
import { assertLocalPage } from './ui';

/**
 * Staff sign-in for the box office (staff/sessions.ts). Like /ui-config.json, the sign-in answers this
 * machine's own page only (no key needed, loopback and same-origin); signing out takes the staff key itself.
 * Both are the UI's, not the integrators': left out of the OpenAPI document.
 */

export const staffSessionRoutes: FastifyPluginAsyncTypebox<{ keys: Repos['keys']; pinHash: string; now: () => number }> = async (app, { keys, pinHash, now }) => {
  // per engine, in memory: a restart ends a lock, as the desktop kiosk's staff exit does
  const guard = createPinGuard();
  app.post('/staff-sessions', { schema: { hide: true, body: StaffSignInBody, response: replies(201, StaffSession) } }, async (request, reply) => {
    assertLocalPage(request);
    const session = await signIn({ keys, pinHash, guard, now }, request.body.pin);
    return reply.code(201).header('cache-control', 'no-store').send({ data: session });
  });
  app.delete('/staff-sessions/current', { config: { scope: 'orders:any' }, schema: { hide: true } }, async (request, reply) => {
    await signOut(keys, callerOf(request));
    return reply.code(204).send(null);
  });
};
