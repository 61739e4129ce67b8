import { LIMITS } from '../core/limits';

const MiB = 1024 * 1024;

/** Limits of POST /v1/uploads (docs/assets.md, "Uploads"). */
export const UPLOAD_LIMITS = {
  /** One file. */
  maxFileBytes: 5 * 1024 * MiB,
  /** Image content is decoded in memory to be checked and get its web rendition: the POST /v1/assets limit. */
  maxImageBytes: LIMITS.maxImageBytes,
  /** S3's minimum for every part but the last. */
  minPartBytes: 5 * MiB,
  /** S3's maximum part size. */
  maxPartBytes: 5 * 1024 * MiB,
  /** Part size chosen when the client does not ask for a number of parts. */
  defaultPartBytes: 16 * MiB,
  /** Parts (and presigned URLs in one answer). */
  maxParts: 1000,
  fileNameLength: 255,
  /** Import attempts (storage or database failures) before the upload fails. */
  maxAttempts: 3,
  /** Finished uploads are purged after this. */
  retentionMs: 30 * 24 * 3600 * 1000,
} as const;

/** Kinds a client may declare (upstream's enum minus `model`, which is not an asset). */
export const UPLOAD_KINDS = ['asset', 'image', 'video', 'audio', '3d', 'avatar'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Declared content types accepted per kind: served as declared, so never one a browser would run. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'];
const BY_KIND: Record<UploadKind, (type: string) => boolean> = {
  image: (t) => IMAGE_TYPES.includes(t),
  avatar: (t) => IMAGE_TYPES.includes(t),
  video: (t) => t.startsWith('video/') || t === 'application/octet-stream',
  audio: (t) => t.startsWith('audio/') || t === 'application/octet-stream',
  '3d': (t) =>
    t.startsWith('model/') ||
    ['application/octet-stream', 'application/x-fbx', 'application/x-ply'].includes(t),
  asset: (t) => (['image', 'video', 'audio', '3d'] as const).some((k) => BY_KIND[k](t)),
};

export function acceptsContentType(kind: UploadKind, contentType: string): boolean {
  return /^[a-z]+\/[a-z0-9][a-z0-9.+-]*$/.test(contentType) && BY_KIND[kind](contentType);
}

/** Part size and count: `parts` as asked (checked against S3's rules), or 16 MiB parts. */
export function partPlan(
  fileSize: number,
  parts?: number,
): { partSize: number; partsCount: number } | string {
  const partsCount = parts ?? Math.max(1, Math.ceil(fileSize / UPLOAD_LIMITS.defaultPartBytes));
  if (partsCount > UPLOAD_LIMITS.maxParts) return `parts can be at most ${UPLOAD_LIMITS.maxParts}`;
  if (partsCount > fileSize) return 'parts cannot exceed fileSize';
  const partSize = Math.ceil(fileSize / partsCount);
  if (partsCount > 1 && partSize < UPLOAD_LIMITS.minPartBytes) {
    return `parts of ${partSize} bytes are too small: every part but the last must be at least 5 MiB (use at most ${Math.max(1, Math.floor(fileSize / UPLOAD_LIMITS.minPartBytes))} parts)`;
  }
  if (partSize > UPLOAD_LIMITS.maxPartBytes) return 'parts cannot be larger than 5 GiB: use more parts';
  // The last part holds the rest; with ceil() it is never empty.
  if (partSize * (partsCount - 1) >= fileSize)
    return `${partsCount} parts of ${partSize} bytes leave the last part empty: use fewer parts`;
  return { partSize, partsCount };
}
