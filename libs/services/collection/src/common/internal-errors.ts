import { InternalApiError } from '@genasset/contracts';
import { ApiError } from '@genasset/http';

/**
 * Calls an internal API (asset-service, generation-service) and turns its
 * failure into a public error: an unreachable or failing owner is a 503 for
 * our caller (retry later), never a 500 that hides which dependency is down.
 */
export async function callInternal<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof InternalApiError) {
      throw new ApiError(
        503,
        'service_unavailable',
        `${what} is unavailable, retry later`,
        {},
        { cause: error },
      );
    }
    throw error;
  }
}
