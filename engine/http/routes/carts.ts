import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Cart, CartParams, CreateCartBody, SwitchCurrencyBody } from '../../contract/cart';
import { CurrencyQuery, ErrorBody, replies } from '../../contract/common';
import type { Allocator } from '../../sync/allocator';
import type { EngineContext } from '../../shared/context';
import { createCart } from '../../carts/create-cart';
import { deleteCart } from '../../carts/delete-cart';
import { readCart } from '../../carts/read-cart';
import { switchCurrency } from '../../carts/switch-currency';
import { localizeCart } from '../../shared/localize';

const config = { scope: 'carts:write' } as const;
const tags = ['carts'];

export const cartRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext; allocator: () => Allocator | undefined }> = async (app, { ctx, allocator }) => {
  app.post('/carts', { config, schema: { tags, summary: 'Create a cart', body: CreateCartBody, response: replies(201, Cart) } }, async (request, reply) => {
    // A terminal asks its hub for what the cart needs beyond what it holds, within this request.
    const hold = await allocator()?.beforeCart(request.body);
    let cart;
    try {
      cart = await createCart(ctx, request.body, request.caller);
    } catch (error) {
      await hold?.release();
      throw error;
    }
    await hold?.attach(cart.id);
    return reply.code(201).send({ data: await localizeCart(ctx, cart, request.language) });
  });

  app.get(
    '/carts/:cartId',
    { config, schema: { tags, summary: 'Read a cart', params: CartParams, querystring: CurrencyQuery, response: replies(200, Cart) } },
    async (request) => ({ data: await localizeCart(ctx, await readCart(ctx, request.params.cartId, request.query.currency), request.language) }),
  );

  app.patch(
    '/carts/:cartId',
    { config, schema: { tags, summary: "Switch the cart's currency", params: CartParams, body: SwitchCurrencyBody, response: replies(200, Cart) } },
    async (request) => ({ data: await localizeCart(ctx, await switchCurrency(ctx, request.params.cartId, request.body.currency), request.language) }),
  );

  app.delete(
    '/carts/:cartId',
    { config, schema: { tags, summary: 'Release the hold', params: CartParams, response: { 204: { type: 'null', description: 'Released' }, '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request, reply) => {
      await deleteCart(ctx, request.params.cartId);
      await allocator()?.afterCartReleased(request.params.cartId);
      return reply.code(204).send(null);
    },
  );
};
