import { InternalApiError } from '@genasset/contracts';
import { ApiError } from '@genasset/http';

/** Statuses of other services' answers a client can act on; anything else is our fault (500). */
const PASSED_THROUGH = new Set([402, 404, 409, 429, 503]);

/**
 * Maps an error of an internal API (JobsApi, AssetsApi) to the public error:
 * insufficient credits (402), a reused idempotency key (409), a peer that is
 * unavailable (503) keep their status, code, message and infos; a 400 from a
 * peer means this service sent a bad command, which the client cannot fix.
 */
export function publicError(error: unknown): unknown {
  if (!(error instanceof InternalApiError)) return error;
  if (PASSED_THROUGH.has(error.status))
    return new ApiError(error.status, error.apiError, error.message, error.infos, { cause: error });
  return ApiError.internal(error);
}
