import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../shared/context';
import { checkCartAccess, checkOrderAccess } from '../shared/ownership';

/**
 * Every route with a `cartId` or `orderId` in its path (carts, their items and vouchers, orders, cancel, print,
 * the tickets PDF) is checked here, once, after auth and validation: another key's cart or order is not found
 * (shared/ownership.ts). Routes without a scope (the v1 facade, the PSP) have no caller and are not concerned.
 */
export function installOwnership(app: FastifyInstance, ctx: EngineContext): void {
  app.addHook('preHandler', async (request) => {
    const caller = request.caller;
    const params = request.params;
    if (caller === undefined || typeof params !== 'object' || params === null) return;
    if ('cartId' in params && typeof params.cartId === 'string') await checkCartAccess(ctx, params.cartId, caller);
    if ('orderId' in params && typeof params.orderId === 'string') await checkOrderAccess(ctx, params.orderId, caller);
  });
}
