import type { ErrorBody } from './types';

/** An answer in the error envelope, or a failure to get one (type NETWORK_ERROR, code NETWORK_UNREACHABLE). */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(status: number, body: ErrorBody['error']) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.details = body.details ?? {};
  }
}

export const networkError = (message: string) => new ApiError(0, { type: 'NETWORK_ERROR', code: 'NETWORK_UNREACHABLE', message });

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

/** Whatever was thrown, as an ApiError (a bug in the UI shows as an unknown error rather than a crash). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, { type: 'CLIENT_ERROR', code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) });
}
