/** Limits of batch downloads (docs/assets.md, "Batch downloads"). */
export const DOWNLOAD_LIMITS = {
  /** Assets in one archive (spec: "at most 1000 assets"). */
  maxAssets: 1000,
  /** Inference or model ids in one request. */
  maxSourceIds: 100,
  /** Sum of the assets' sizes: beyond it the request is refused (400 `archive_too_large`). */
  maxArchiveBytes: 50 * 1024 ** 3,
  /** Attempts at building one archive (storage or database failures); then the job fails. */
  maxAttempts: 3,
  /** `fileNameTemplate` length. */
  templateLength: 200,
  /** Finished rows are purged after this (the job keeps the outcome; the archive is long gone). */
  retentionMs: 30 * 24 * 3600 * 1000,
  /** The archive outlives its URL by this, so a download started just before expiry completes. */
  deletionMarginMs: 3600 * 1000,
} as const;

const MiB = 1024 * 1024;

/** Multipart part size for an archive of about `bytes`: 8 MiB, more when 9,000 parts would not hold it (S3 allows 10,000). */
export function partSizeFor(bytes: number): number {
  return Math.max(8 * MiB, Math.ceil((bytes * 1.05) / 9000 / MiB) * MiB);
}
