/**
 * Errors of the HTTP API: each carries its status, and every failure leaves the server as
 * `{"error": {"code", "message", "hint"}}`. LoreErrors from the store map here, once.
 */
import { isLoreError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/errors.js';

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string | undefined;
  readonly details: unknown;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { hint?: string; details?: unknown } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }
}

const STATUS_OF: Record<ErrorCode, number> = {
  usage: 400,
  'not-found': 404,
  ambiguous: 409,
  invalid: 422,
  conflict: 409,
  'no-project': 409,
  'legacy-layout': 409,
  locked: 423,
  io: 500,
};

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (isLoreError(error)) {
    return new HttpError(STATUS_OF[error.code] ?? 400, error.code, error.message, {
      ...(error.hint ? { hint: error.hint } : {}),
      details: error.details,
    });
  }
  return new HttpError(500, 'internal', `internal error: ${(error as Error)?.message ?? String(error)}`, {
    hint: 'this is a bug in lore; the server log has the details',
  });
}

export function errorBody(error: HttpError): string {
  return JSON.stringify({
    error: {
      code: error.code,
      message: error.message,
      hint: error.hint ?? null,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  });
}
