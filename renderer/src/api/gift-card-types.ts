/**
 * The gift-card shapes of contract §13 and the shared design (quote, balance, the order's parts).
 * Stand-ins until the engine's schemas (branch i24-engine) land in engine/contract; then these re-export them.
 */
import type { MoneyBody as Money } from '../../../engine/contract/common';

export type GiftCardPaymentMethod = 'giftCard';

/** one card's part of an order's payment */
export interface GiftCardPayment {
  code: string;
  amount: Money;
}

/** POST /carts/{cartId}/gift-card-quote: what each card would take and what is left to pay */
export interface GiftCardQuote {
  parts: GiftCardPart[];
  remaining: Money;
}
export interface GiftCardPart {
  code: string;
  amount: Money;
  balance: Money;
  balanceAfter: Money;
}

/** GET /gift-cards/{code} */
export interface GiftCardView {
  code: string;
  currency: string;
  initial: Money;
  balance: Money;
  status: 'active' | 'void';
  transactions: { at: string; orderId: string; amount: Money }[];
}
