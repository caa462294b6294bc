import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApplyVoucherBody, Cart, CartParams, CartVoucherParams } from '../../contract/cart';
import { replies } from '../../contract/common';
import type { EngineContext } from '../../shared/context';
import { applyVoucher, removeVoucher } from '../../carts/vouchers';
import { localizeCart } from '../../shared/localize';

const config = { scope: 'carts:write' } as const;
const tags = ['vouchers'];

export const voucherRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.post(
    '/carts/:cartId/vouchers',
    { config, schema: { tags, summary: 'Apply a voucher', params: CartParams, body: ApplyVoucherBody, response: replies(200, Cart) } },
    async (request) => ({ data: await localizeCart(ctx, await applyVoucher(ctx, request.params.cartId, request.body.code), request.language) }),
  );

  app.delete(
    '/carts/:cartId/vouchers/:code',
    { config, schema: { tags, summary: 'Remove a voucher', params: CartVoucherParams, response: replies(200, Cart) } },
    async (request) => ({ data: await localizeCart(ctx, await removeVoucher(ctx, request.params.cartId, request.params.code), request.language) }),
  );
};
