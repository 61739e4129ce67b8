import { randomBytes } from 'node:crypto';

/**
 * Object keys of an asset, all under `assets/<projectId>/<assetId>/`. Every
 * write gets a fresh random suffix, so a replaced canvas never overwrites the
 * object an earlier signed URL or a concurrent request still points at.
 */
export const objectKeys = {
  original: (projectId: string, assetId: string, extension: string) => `${prefix(projectId, assetId)}original-${nonce()}.${extension}`,
  rendition: (projectId: string, assetId: string) => `${prefix(projectId, assetId)}web-${nonce()}.webp`,
  thumbnail: (projectId: string, assetId: string, extension: string) => `${prefix(projectId, assetId)}thumbnail-${nonce()}.${extension}`,
  /** Conversions made by POST /assets/{id}/download, reused while the asset lives. */
  download: (projectId: string, assetId: string, extension: string) => `${prefix(projectId, assetId)}download.${extension}`,
};

export function assetPrefix(projectId: string, assetId: string): string {
  return prefix(projectId, assetId);
}

function prefix(projectId: string, assetId: string): string {
  return `assets/${projectId}/${assetId}/`;
}

function nonce(): string {
  return randomBytes(6).toString('base64url');
}
