/** S3 presigned URLs live at most 7 days; the filesystem store keeps the same limit. */
export const MAX_SIGNED_URL_SECONDS = 7 * 24 * 3600;

export function validateExpiry(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SIGNED_URL_SECONDS) {
    throw new RangeError(
      `expiresInSeconds must be an integer from 1 to ${MAX_SIGNED_URL_SECONDS}, got ${seconds}`,
    );
  }
  return seconds;
}
