import { EngineError } from '../domain/errors';
import type { Order } from '../contract/order';
import type { Storage } from '../shared/context';
import { orderViews } from './order-view';

/** GET /orders/{id} (contract §4): one order as the API shows it; an unknown id is 404 RESOURCE_NOT_FOUND. */
export async function readOrder(ctx: Storage, orderId: string): Promise<Order> {
  const repos = ctx.store.repos;
  const row = await repos.orders.get(orderId);
  const [order] = row ? await orderViews(repos, [row]) : [];
  if (!order) throw new EngineError('RESOURCE_NOT_FOUND', { param: 'orderId' });
  return order;
}
