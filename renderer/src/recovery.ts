import type { ApiError } from './api/errors';

/**
 * What the UI does about an error (spec §7.5): `code` first for specific recovery, then `type` for broad
 * handling, and a fallback for anything new.
 */
export type Recovery =
  | 'start-over' // the cart is gone: a fresh start
  | 'refresh' // state changed: show the current state and confirm
  | 'other-payment' // declined: another card or cash
  | 'authenticate' // 3-D Secure challenge
  | 'support' // risk decline: will not succeed on retry
  | 'retry-later' // temporary: try again in a moment
  | 'fix-input' // the request needs changing
  | 'sign-in' // key or permission problem: staff must fix the set-up
  | 'open-drawer' // cash needs an open shift (contract §14): open the drawer, then again
  | 'unknown';

const BY_CODE: Readonly<Record<string, Recovery>> = {
  CART_EXPIRED: 'start-over',
  CART_ALREADY_ORDERED: 'refresh',
  EXPECTED_TOTAL_MISMATCH: 'refresh',
  INVENTORY_EXHAUSTED: 'refresh',
  PAYMENT_AUTHENTICATION_REQUIRED: 'authenticate',
  PAYMENT_DECLINED: 'other-payment',
  RISK_CHECK_FAILED: 'support',
  PAYMENT_PROVIDER_UNAVAILABLE: 'retry-later',
  CURRENCY_TEMPORARILY_UNAVAILABLE: 'retry-later',
  CART_CHECKOUT_IN_PROGRESS: 'retry-later',
  UPSTREAM_UNAVAILABLE: 'retry-later',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'retry-later',
  // gift cards (contract §13): a mistyped code is checked again; a void, spent or foreign card leaves another way to pay
  GIFT_CARD_NOT_FOUND: 'fix-input',
  GIFT_CARD_VOID: 'other-payment',
  GIFT_CARD_INSUFFICIENT_BALANCE: 'other-payment',
  GIFT_CARD_CURRENCY_MISMATCH: 'other-payment',
  GIFT_CARD_NOT_ACCEPTED: 'other-payment',
  // the cash drawer (contract §14)
  SHIFT_NOT_OPEN: 'open-drawer',
  INSUFFICIENT_CASH: 'fix-input',
};

const BY_TYPE: Readonly<Record<string, Recovery>> = {
  INVALID_REQUEST_ERROR: 'fix-input',
  AUTHENTICATION_ERROR: 'sign-in',
  PERMISSION_ERROR: 'sign-in',
  PAYMENT_ERROR: 'other-payment',
  NOT_FOUND_ERROR: 'refresh',
  CONFLICT_ERROR: 'refresh',
  RESOURCE_GONE_ERROR: 'start-over',
  RATE_LIMIT_ERROR: 'retry-later',
  API_ERROR: 'retry-later',
  SERVICE_UNAVAILABLE: 'retry-later',
  NETWORK_ERROR: 'retry-later',
};

export function recoveryFor(error: ApiError): Recovery {
  if (Object.hasOwn(BY_CODE, error.code)) return BY_CODE[error.code] ?? 'unknown';
  if (Object.hasOwn(BY_TYPE, error.type)) return BY_TYPE[error.type] ?? 'unknown';
  return 'unknown';
}
