import { expect } from 'vitest';
import type { ApiResponse, TestEngine } from './engine';
import { concert, createCart, giftCard, type Cart } from './cart-assertions';
import type { Money } from './cart-assertions';
import { cash, placeOrder, type Order } from './orders';

/** Gift cards as payment (issue #24, contract §13): getting a card and reading it, for the API tests. */

export interface GiftCardBody {
  code: string;
  currency: string;
  initial: Money;
  balance: Money;
  status: 'active' | 'void';
  transactions: { at: string; orderId: string; amount: Money }[];
}

/** Buys a gift card with cash (demo catalog: gift-25, gift-50, gift-100) and answers its code and the order. */
export async function buyGiftCard(engine: TestEngine, priceOptionId = 'gift-50'): Promise<{ code: string; order: Order }> {
  const cart = await createCart(engine, [giftCard(priceOptionId)]);
  const order = await placeOrder(engine, cart.id, cart.total, cash());
  const code = order.giftCards[0]?.code;
  if (code === undefined) throw new Error('the gift-card order issued no card');
  return { code, order };
}

/** GET /gift-cards/{code} */
export function getGiftCard(engine: TestEngine, code: string, key?: string): Promise<ApiResponse<{ data: GiftCardBody }>> {
  return engine.request('GET', `/gift-cards/${encodeURIComponent(code)}`, key === undefined ? {} : { key });
}

/** the card's balance in minor units (200 expected) */
export async function balanceOf(engine: TestEngine, code: string): Promise<number> {
  const response = await getGiftCard(engine, code);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.balance.amount;
}

/** a ticket cart of `quantity` standing places at the demo concert */
export async function ticketCart(engine: TestEngine, quantity = 2): Promise<Cart> {
  return createCart(engine, [concert(quantity)]);
}
