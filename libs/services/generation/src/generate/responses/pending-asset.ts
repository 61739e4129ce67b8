import { prefixedId, type JobView, type TenantRef } from '@genasset/contracts';
import { isAssetId } from '../dto/image-ref';
import type { OutputAsset } from '../modes/mode-definition';

export const PENDING_ASSET_STATUSES = ['pending', 'success', 'error'] as const;
export const ASSET_KINDS_FOR_DOCS = ['image'] as const;
/** Every job-asset mode outputs an image (svg included: vectorize). */
const PENDING_ASSET_KIND = ASSET_KINDS_FOR_DOCS[0];

/** The id the output asset of a job-asset mode will have; reserved at request time, passed to the executor. */
export function reserveAssetId(): string {
  return prefixedId('asset');
}

const FORMAT_TYPES: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg' };

/**
 * The `asset` of a job + asset + billing response. Upstream answers with the
 * output asset, whose `status` can be `pending`; here the output does not
 * exist yet when the request is answered (the executor makes it), so the
 * response announces it: its reserved id (the asset will have exactly this id
 * once the job succeeds), status `pending`, its type, its parent (the input
 * asset, when the image was given as an asset id), no URL yet, and the fields
 * upstream requires of every asset with what is known now: `metadata.kind`,
 * and `properties.size` 0 (no bytes stored yet).
 */
export function pendingAsset(
  output: OutputAsset,
  assetId: string,
  body: Record<string, unknown>,
  tenant: TenantRef,
  job: JobView,
): Record<string, unknown> {
  const parent = body[output.from];
  const format = typeof body.format === 'string' ? FORMAT_TYPES[body.format] : undefined;
  return {
    id: assetId,
    status: 'pending',
    kind: PENDING_ASSET_KIND,
    source: output.type,
    mimeType: format ?? output.mimeType,
    url: '',
    ownerId: tenant.projectId,
    authorId: tenant.authorId,
    privacy: 'private',
    tags: [],
    collectionIds: [],
    editCapabilities: [],
    properties: { size: 0 },
    metadata: { type: output.type, kind: PENDING_ASSET_KIND, ...(isAssetId(parent) ? { parentId: parent } : {}) },
    outputIndex: 0,
    createdAt: job.createdAt,
    updatedAt: job.createdAt,
  };
}
