const MiB = 1024 * 1024;

/** S3's multipart rules, which the filesystem store applies too so both refuse the same uploads. */
export const MIN_PART_BYTES = 5 * MiB;
export const MAX_PART_BYTES = 5 * 1024 * MiB;
export const MAX_PART_NUMBER = 10_000;

export function validatePartNumber(partNumber: number): number {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER)
    throw new RangeError(`partNumber must be an integer from 1 to ${MAX_PART_NUMBER}, got ${partNumber}`);
  return partNumber;
}

/** An optional part size cap: a positive integer no larger than S3's part limit. */
export function validateMaxPartBytes(maxBytes: number | undefined): number {
  if (maxBytes === undefined) return MAX_PART_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_PART_BYTES)
    throw new RangeError(`maxBytes must be an integer from 1 to ${MAX_PART_BYTES}, got ${maxBytes}`);
  return maxBytes;
}

/** ETags compare without their quotes (S3 does the same). */
export function bareEtag(etag: string): string {
  return etag.replace(/"/g, '');
}
