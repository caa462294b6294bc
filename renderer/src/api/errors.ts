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

/** Whatever was thrown, as an ApiError (a bug in the UI shows as an unknown error rather than a crash). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, { type: 'CLIENT_ERROR', code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) });
}
