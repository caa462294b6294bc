import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AddExtrasBody, Cart, CartItemParams, CartParams, ChangeQuantityBody } from '../../contract/cart';
import { replies } from '../../contract/common';
import { addExtras } from '../../carts/add-extras';
import { changeExtra } from '../../carts/change-extra';
import type { EngineContext } from '../../shared/context';
import { removeExtra } from '../../carts/remove-extra';
import { localizeCart } from '../../shared/localize';

const config = { scope: 'carts:write' } as const;
const tags = ['extras'];

export const cartItemRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.post(
    '/carts/:cartId/items',
    { config, schema: { tags, summary: 'Add one or more extras', params: CartParams, body: AddExtrasBody, response: replies(200, Cart) } },
    async (request) => ({ data: await localizeCart(ctx, await addExtras(ctx, request.params.cartId, request.body), request.language) }),
  );

  app.patch(
    '/carts/:cartId/items/:itemId',
    { config, schema: { tags, summary: "Change an extra's quantity", params: CartItemParams, body: ChangeQuantityBody, response: replies(200, Cart) } },
    async (request) => ({
      data: await localizeCart(ctx, await changeExtra(ctx, request.params.cartId, request.params.itemId, request.body.quantity), request.language),
    }),
  );

  app.delete(
    '/carts/:cartId/items/:itemId',
    { config, schema: { tags, summary: 'Drop an extra', params: CartItemParams, response: replies(200, Cart) } },
    async (request) => ({ data: await localizeCart(ctx, await removeExtra(ctx, request.params.cartId, request.params.itemId), request.language) }),
  );
};
