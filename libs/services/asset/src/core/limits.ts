/** Every size and count limit of asset-service, in one place (documented in docs/assets.md). */
export const LIMITS = {
  /** Decoded image bytes accepted by POST /v1/assets. */
  maxImageBytes: 25 * 1024 * 1024,
  /** Canvas JSON bytes (upload and update). */
  maxCanvasBytes: 5 * 1024 * 1024,
  /** Canvas thumbnail image bytes. */
  maxThumbnailBytes: 2 * 1024 * 1024,
  /** Pixels sharp may decode from one image (width × height). */
  maxImagePixels: 16384 * 16384,
  /** JSON body of the upload and canvas update routes: a base64 image of maxImageBytes and a thumbnail. */
  uploadBodyBytes: 40 * 1024 * 1024,
  /** Body of PUT /v1/assets/{id}: a canvas, a thumbnail and base64 overhead. */
  canvasBodyBytes: 12 * 1024 * 1024,
  deleteBatch: 100,
  getBulkBatch: 200,
  tagsPerAsset: 100,
  tagLength: 64,
  nameLength: 255,
  descriptionLength: 10_000,
  /** Signed URLs of `url`, `thumbnail.url` and downloads. */
  signedUrlSeconds: 3600,
  lockDefaultSeconds: 5 * 60,
  lockMaxSeconds: 60 * 60,
} as const;

/** "25 MiB" for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
