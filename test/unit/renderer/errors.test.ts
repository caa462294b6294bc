import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ERROR_TYPES } from '../../../engine/domain/errors';
import { ApiError, networkError, toApiError } from '../../../renderer/src/api/errors';
import { recoveryFor, type Recovery } from '../../../renderer/src/recovery';

/** What the UI does about an error (spec §7.2–7.5): code first, then type, then a fallback for anything new. */

const apiError = (code: string, type: string, status = 400) => new ApiError(status, { type, code, message: `${code} message` });

/** The recovery the UI must offer for every code the engine can answer, with the type the engine sends it with. */
const EXPECTED_BY_CODE: Readonly<Record<string, Recovery>> = {
  // spec §7.3
  INVALID_API_KEY: 'sign-in',
  INSUFFICIENT_PERMISSIONS: 'sign-in',
  INVENTORY_EXHAUSTED: 'refresh',
  INVALID_PRICE_OPTION: 'fix-input',
  OCCURRENCE_NOT_AVAILABLE: 'refresh',
  MIXED_OCCURRENCES_NOT_SUPPORTED: 'fix-input',
  MIXED_PRODUCT_TYPES_NOT_SUPPORTED: 'fix-input',
  MULTIPLE_GIFT_CARDS_NOT_SUPPORTED: 'fix-input',
  GIFT_CARD_QUANTITY_NOT_SUPPORTED: 'fix-input',
  INVALID_VOUCHER: 'fix-input',
  VOUCHER_NOT_APPLICABLE_TO_GIFT_CARD: 'fix-input',
  INVALID_FIELD_VALUE: 'fix-input',
  CURRENCY_NOT_SUPPORTED: 'fix-input',
  CURRENCY_TEMPORARILY_UNAVAILABLE: 'retry-later',
  EXPECTED_TOTAL_MISMATCH: 'refresh',
  CART_EXPIRED: 'start-over',
  CART_ALREADY_ORDERED: 'refresh',
  PAYMENT_AUTHENTICATION_REQUIRED: 'authenticate',
  PAYMENT_DECLINED: 'other-payment',
  RISK_CHECK_FAILED: 'support',
  RESOURCE_NOT_FOUND: 'refresh',
  RATE_LIMIT_EXCEEDED: 'retry-later',
  INVALID_IDEMPOTENCY_KEY: 'fix-input',
  IDEMPOTENCY_KEY_FAILED: 'refresh',
  // contract §6
  ITEM_NOT_MODIFIABLE: 'fix-input',
  MALFORMED_JSON: 'fix-input',
  MISSING_REQUIRED_FIELD: 'fix-input',
  IDEMPOTENCY_KEY_REUSED: 'refresh',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'retry-later',
  PAYMENT_PROVIDER_UNAVAILABLE: 'retry-later',
  INTERNAL_ERROR: 'retry-later',
  // the engine's own
  MALFORMED_REQUEST: 'fix-input',
  BODY_TOO_LARGE: 'fix-input',
  UNSUPPORTED_MEDIA_TYPE: 'fix-input',
  HOST_NOT_ALLOWED: 'sign-in',
  ORIGIN_NOT_ALLOWED: 'sign-in',
  CART_CHECKOUT_IN_PROGRESS: 'retry-later',
  // printing (contract §12); the print panel treats PRINTER_NOT_CONFIGURED as "no printer here" and shows no error
  PRINTER_NOT_CONFIGURED: 'refresh',
  ORDER_NOT_PRINTABLE: 'refresh',
  UPSTREAM_UNAVAILABLE: 'retry-later',
  HEADERS_TOO_LARGE: 'fix-input',
  REQUEST_TIMEOUT: 'fix-input',
  // ownership and staff sign-in (issue #22): a terminal's sync sees the first, the sign-in screen the second
  IMPORT_REFERENCE_TAKEN: 'refresh',
  INVALID_STAFF_PIN: 'sign-in',
  // storage (issue #23): the hub's PostgreSQL restarting
  DATABASE_UNAVAILABLE: 'retry-later',
  // gift cards (issue #24)
  GIFT_CARD_NOT_FOUND: 'fix-input',
  GIFT_CARD_VOID: 'other-payment',
  GIFT_CARD_INSUFFICIENT_BALANCE: 'other-payment',
  GIFT_CARD_CURRENCY_MISMATCH: 'other-payment',
  GIFT_CARD_NOT_ACCEPTED: 'other-payment',
  GIFT_CARD_ALREADY_USED: 'refresh',
  // shifts and the cash drawer (issue #25): cash with no open shift leads to the drawer; a pay-out the drawer cannot
  // cover is an entry to change; a shift opened or closed elsewhere meanwhile is read again
  SHIFT_ALREADY_OPEN: 'refresh',
  SHIFT_NOT_OPEN: 'open-drawer',
  SHIFT_CLOSED: 'refresh',
  INSUFFICIENT_CASH: 'fix-input',
  // a terminal's journal at its hub (issue #25): answered to a terminal's sync worker, never to a page; by type
  JOURNAL_GAP: 'refresh',
  JOURNAL_CHAIN_BROKEN: 'refresh',
  // checking tickets at the door (issue #26): the gate screen shows its own verdicts; elsewhere by type
  TICKET_INVALID: 'fix-input',
  TICKET_NOT_FOUND: 'refresh',
  TICKET_CANCELLED: 'start-over',
  TICKET_WRONG_OCCURRENCE: 'refresh',
  ALREADY_CHECKED_IN: 'refresh',
  NOT_CHECKED_IN: 'refresh',
  TICKET_KEY_CONFLICT: 'refresh',
};

/** Codes the UI handles specifically, whatever type they arrive with (errors.ts BY_CODE). */
const SPECIFIC: Readonly<Record<string, Recovery>> = {
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
  // gift cards (issue #24): a mistyped code is checked again (not "the cart was refreshed"); a void card is no
  // reason to start over, nor a card that does not cover or is of another currency: another way to pay is
  GIFT_CARD_NOT_FOUND: 'fix-input',
  GIFT_CARD_VOID: 'other-payment',
  GIFT_CARD_INSUFFICIENT_BALANCE: 'other-payment',
  GIFT_CARD_CURRENCY_MISMATCH: 'other-payment',
  GIFT_CARD_NOT_ACCEPTED: 'other-payment',
  // the cash drawer (issue #25)
  SHIFT_NOT_OPEN: 'open-drawer',
  INSUFFICIENT_CASH: 'fix-input',
};

/** Broad handling by type (spec §7.2), plus the client's own NETWORK_ERROR. */
const BY_TYPE: Readonly<Record<string, Recovery>> = {
  INVALID_REQUEST_ERROR: 'fix-input',
  AUTHENTICATION_ERROR: 'sign-in',
  PAYMENT_ERROR: 'other-payment',
  PERMISSION_ERROR: 'sign-in',
  NOT_FOUND_ERROR: 'refresh',
  CONFLICT_ERROR: 'refresh',
  RESOURCE_GONE_ERROR: 'start-over',
  RATE_LIMIT_ERROR: 'retry-later',
  API_ERROR: 'retry-later',
  SERVICE_UNAVAILABLE: 'retry-later',
  NETWORK_ERROR: 'retry-later',
};

describe('recoveryFor: every code the engine answers', () => {
  it('the table above names every code of the engine catalogue, and no other', () => {
    expect(Object.keys(EXPECTED_BY_CODE).sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });

  it.each(Object.entries(ERROR_CATALOGUE))('%s (as the engine sends it) → its recovery', (code, row) => {
    expect(recoveryFor(apiError(code, row.type, row.status))).toBe(EXPECTED_BY_CODE[code]);
  });
});

describe('recoveryFor: specific codes win over their type', () => {
  it.each(Object.entries(SPECIFIC))('%s with an unknown type → %s', (code, recovery) => {
    expect(recoveryFor(apiError(code, 'SOME_NEW_TYPE'))).toBe(recovery);
  });

  it('EXPECTED_TOTAL_MISMATCH is INVALID_REQUEST_ERROR (fix-input) but answers refresh', () => {
    expect(recoveryFor(apiError('EXPECTED_TOTAL_MISMATCH', 'INVALID_REQUEST_ERROR'))).toBe('refresh');
  });

  it('RISK_CHECK_FAILED is PERMISSION_ERROR (sign-in) but answers support: retrying will not succeed', () => {
    expect(recoveryFor(apiError('RISK_CHECK_FAILED', 'PERMISSION_ERROR', 403))).toBe('support');
  });

  it('PAYMENT_AUTHENTICATION_REQUIRED is PAYMENT_ERROR (other-payment) but answers authenticate', () => {
    expect(recoveryFor(apiError('PAYMENT_AUTHENTICATION_REQUIRED', 'PAYMENT_ERROR', 402))).toBe('authenticate');
  });

  it('CURRENCY_TEMPORARILY_UNAVAILABLE sent as a 400 type still answers retry-later', () => {
    expect(recoveryFor(apiError('CURRENCY_TEMPORARILY_UNAVAILABLE', 'INVALID_REQUEST_ERROR'))).toBe('retry-later');
  });
});

describe('recoveryFor: a new code falls back on its type (spec §7.5)', () => {
  it('every type of spec §7.2 is covered', () => {
    expect([...ERROR_TYPES].sort()).toEqual(Object.keys(BY_TYPE).filter((type) => type !== 'NETWORK_ERROR').sort());
  });

  it.each(Object.entries(BY_TYPE))('an unknown code of type %s → %s', (type, recovery) => {
    expect(recoveryFor(apiError('A_CODE_ADDED_NEXT_YEAR', type))).toBe(recovery);
  });

  it('an unknown code with an unknown type → unknown', () => {
    expect(recoveryFor(apiError('A_CODE_ADDED_NEXT_YEAR', 'A_TYPE_ADDED_NEXT_YEAR'))).toBe('unknown');
  });

  it('matching is exact: lower-case codes and types are unknown', () => {
    expect(recoveryFor(apiError('cart_expired', 'resource_gone_error', 410))).toBe('unknown');
  });

  it('a code or type named like an Object.prototype member is still unknown', () => {
    expect(recoveryFor(apiError('constructor', 'toString'))).toBe('unknown');
    expect(recoveryFor(apiError('__proto__', 'hasOwnProperty'))).toBe('unknown');
  });
});

describe('ApiError, networkError, toApiError', () => {
  it('ApiError carries status, type, code, message, param and details from the envelope', () => {
    const error = new ApiError(409, {
      type: 'CONFLICT_ERROR',
      code: 'INVENTORY_EXHAUSTED',
      message: 'Only 2 left',
      param: 'items[0].quantity',
      details: { availableQuantity: 2, requestedQuantity: 5 },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(409);
    expect(error.type).toBe('CONFLICT_ERROR');
    expect(error.code).toBe('INVENTORY_EXHAUSTED');
    expect(error.message).toBe('Only 2 left');
    expect(error.param).toBe('items[0].quantity');
    expect(error.details).toEqual({ availableQuantity: 2, requestedQuantity: 5 });
  });

  it('without param and details: param undefined, details {}', () => {
    const error = new ApiError(410, { type: 'RESOURCE_GONE_ERROR', code: 'CART_EXPIRED', message: 'gone' });
    expect(error.param).toBeUndefined();
    expect(error.details).toEqual({});
  });

  it('networkError is status 0, NETWORK_ERROR / NETWORK_UNREACHABLE, and answers retry-later', () => {
    const error = networkError('The engine could not be reached.');
    expect([error.status, error.type, error.code, error.message]).toEqual([0, 'NETWORK_ERROR', 'NETWORK_UNREACHABLE', 'The engine could not be reached.']);
    expect(recoveryFor(error)).toBe('retry-later');
  });

  it('toApiError returns an ApiError as it is (the same object)', () => {
    const error = apiError('CART_EXPIRED', 'RESOURCE_GONE_ERROR', 410);
    expect(toApiError(error)).toBe(error);
  });

  it('toApiError wraps a plain Error: status 0, CLIENT_ERROR / UNEXPECTED, its message, recovery unknown', () => {
    const wrapped = toApiError(new TypeError('cart is undefined'));
    expect(wrapped).toBeInstanceOf(ApiError);
    expect([wrapped.status, wrapped.type, wrapped.code, wrapped.message]).toEqual([0, 'CLIENT_ERROR', 'UNEXPECTED', 'cart is undefined']);
    expect(wrapped.param).toBeUndefined();
    expect(wrapped.details).toEqual({});
    expect(recoveryFor(wrapped)).toBe('unknown');
  });

  it('toApiError wraps a thrown non-Error by its string form', () => {
    expect(toApiError('boom').message).toBe('boom');
    expect(toApiError(42).message).toBe('42');
    expect(toApiError(undefined).code).toBe('UNEXPECTED');
  });
});
