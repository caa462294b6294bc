/**
 * The one error catalogue of the engine: every code the API can answer, with its type and HTTP status.
 * Codes come from spec §7.3, contract §6 and the engine's own additions (marked below); the compiler
 * refuses a code without a row here or without a message in every language (engine/http/messages).
 */
export const ERROR_TYPES = [
  'INVALID_REQUEST_ERROR',
  'AUTHENTICATION_ERROR',
  'PAYMENT_ERROR',
  'PERMISSION_ERROR',
  'NOT_FOUND_ERROR',
  'CONFLICT_ERROR',
  'RESOURCE_GONE_ERROR',
  'RATE_LIMIT_ERROR',
  'API_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

interface CatalogueRow {
  readonly type: ErrorType;
  readonly status: number;
}

const row = (type: ErrorType, status: number): CatalogueRow => ({ type, status });

export const ERROR_CATALOGUE = {
  // spec §7.3
  INVALID_API_KEY: row('AUTHENTICATION_ERROR', 401),
  INSUFFICIENT_PERMISSIONS: row('PERMISSION_ERROR', 403),
  INVENTORY_EXHAUSTED: row('CONFLICT_ERROR', 409),
  INVALID_PRICE_OPTION: row('INVALID_REQUEST_ERROR', 400),
  OCCURRENCE_NOT_AVAILABLE: row('CONFLICT_ERROR', 409),
  MIXED_OCCURRENCES_NOT_SUPPORTED: row('INVALID_REQUEST_ERROR', 400),
  MIXED_PRODUCT_TYPES_NOT_SUPPORTED: row('INVALID_REQUEST_ERROR', 400),
  MULTIPLE_GIFT_CARDS_NOT_SUPPORTED: row('INVALID_REQUEST_ERROR', 400),
  GIFT_CARD_QUANTITY_NOT_SUPPORTED: row('INVALID_REQUEST_ERROR', 400),
  INVALID_VOUCHER: row('INVALID_REQUEST_ERROR', 400),
  VOUCHER_NOT_APPLICABLE_TO_GIFT_CARD: row('INVALID_REQUEST_ERROR', 400),
  INVALID_FIELD_VALUE: row('INVALID_REQUEST_ERROR', 400),
  CURRENCY_NOT_SUPPORTED: row('INVALID_REQUEST_ERROR', 400),
  CURRENCY_TEMPORARILY_UNAVAILABLE: row('SERVICE_UNAVAILABLE', 503),
  EXPECTED_TOTAL_MISMATCH: row('INVALID_REQUEST_ERROR', 400),
  CART_EXPIRED: row('RESOURCE_GONE_ERROR', 410),
  CART_ALREADY_ORDERED: row('CONFLICT_ERROR', 409),
  PAYMENT_AUTHENTICATION_REQUIRED: row('PAYMENT_ERROR', 402),
  PAYMENT_DECLINED: row('PAYMENT_ERROR', 402),
  RISK_CHECK_FAILED: row('PERMISSION_ERROR', 403),
  RESOURCE_NOT_FOUND: row('NOT_FOUND_ERROR', 404),
  RATE_LIMIT_EXCEEDED: row('RATE_LIMIT_ERROR', 429),
  INVALID_IDEMPOTENCY_KEY: row('INVALID_REQUEST_ERROR', 400),
  IDEMPOTENCY_KEY_FAILED: row('CONFLICT_ERROR', 409),
  // contract §6
  ITEM_NOT_MODIFIABLE: row('INVALID_REQUEST_ERROR', 400),
  MALFORMED_JSON: row('INVALID_REQUEST_ERROR', 400),
  MISSING_REQUIRED_FIELD: row('INVALID_REQUEST_ERROR', 400),
  IDEMPOTENCY_KEY_REUSED: row('CONFLICT_ERROR', 409),
  IDEMPOTENCY_KEY_IN_PROGRESS: row('CONFLICT_ERROR', 409),
  PAYMENT_PROVIDER_UNAVAILABLE: row('API_ERROR', 502),
  INTERNAL_ERROR: row('API_ERROR', 500),
  // the engine's own (spec §7.5 allows new codes)
  MALFORMED_REQUEST: row('INVALID_REQUEST_ERROR', 400),
  BODY_TOO_LARGE: row('INVALID_REQUEST_ERROR', 413),
  UNSUPPORTED_MEDIA_TYPE: row('INVALID_REQUEST_ERROR', 415),
  HOST_NOT_ALLOWED: row('PERMISSION_ERROR', 403),
  ORIGIN_NOT_ALLOWED: row('PERMISSION_ERROR', 403),
  CART_CHECKOUT_IN_PROGRESS: row('CONFLICT_ERROR', 409),
  // printing (contract §12)
  PRINTER_NOT_CONFIGURED: row('CONFLICT_ERROR', 409),
  ORDER_NOT_PRINTABLE: row('CONFLICT_ERROR', 409),
  UPSTREAM_UNAVAILABLE: row('SERVICE_UNAVAILABLE', 503),
  HEADERS_TOO_LARGE: row('INVALID_REQUEST_ERROR', 431),
  REQUEST_TIMEOUT: row('INVALID_REQUEST_ERROR', 408),
  // ownership and staff sign-in (issue #22)
  IMPORT_REFERENCE_TAKEN: row('CONFLICT_ERROR', 409),
  INVALID_STAFF_PIN: row('AUTHENTICATION_ERROR', 401),
  // storage (issue #23): the database server cannot be reached or is restarting; nothing was written
  DATABASE_UNAVAILABLE: row('SERVICE_UNAVAILABLE', 503),
  // gift cards as payment (issue #24, contract §13)
  GIFT_CARD_NOT_FOUND: row('NOT_FOUND_ERROR', 404),
  GIFT_CARD_VOID: row('RESOURCE_GONE_ERROR', 410),
  GIFT_CARD_INSUFFICIENT_BALANCE: row('PAYMENT_ERROR', 402),
  GIFT_CARD_CURRENCY_MISMATCH: row('INVALID_REQUEST_ERROR', 400),
  GIFT_CARD_NOT_ACCEPTED: row('INVALID_REQUEST_ERROR', 400),
  GIFT_CARD_ALREADY_USED: row('CONFLICT_ERROR', 409),
  // shifts and the cash drawer (issue #25, contract §14)
  SHIFT_ALREADY_OPEN: row('CONFLICT_ERROR', 409),
  SHIFT_NOT_OPEN: row('CONFLICT_ERROR', 409),
  SHIFT_CLOSED: row('CONFLICT_ERROR', 409),
  INSUFFICIENT_CASH: row('CONFLICT_ERROR', 409),
  // a terminal's journal at its hub (issue #25, contract §14): POST /hub/journal
  JOURNAL_GAP: row('CONFLICT_ERROR', 409),
  JOURNAL_CHAIN_BROKEN: row('CONFLICT_ERROR', 409),
  // checking tickets at the door (issue #26, contract §15); NOT_CHECKED_IN is ours (an "out" of a ticket not inside)
  TICKET_INVALID: row('INVALID_REQUEST_ERROR', 400),
  TICKET_NOT_FOUND: row('NOT_FOUND_ERROR', 404),
  TICKET_CANCELLED: row('RESOURCE_GONE_ERROR', 410),
  TICKET_WRONG_OCCURRENCE: row('CONFLICT_ERROR', 409),
  ALREADY_CHECKED_IN: row('CONFLICT_ERROR', 409),
  NOT_CHECKED_IN: row('CONFLICT_ERROR', 409),
  TICKET_KEY_CONFLICT: row('CONFLICT_ERROR', 409),
} as const satisfies Record<string, CatalogueRow>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export type ErrorDetails = Readonly<Record<string, unknown>>;

/** An expected failure: carries a catalogued code, optionally the JSON path of the culprit and recovery data. */
export class EngineError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, options: { param?: string; details?: ErrorDetails } = {}) {
    super(code);
    this.name = 'EngineError';
    this.code = code;
    this.param = options.param;
    this.details = options.details;
  }

  get type(): ErrorType {
    return ERROR_CATALOGUE[this.code].type;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }
}
