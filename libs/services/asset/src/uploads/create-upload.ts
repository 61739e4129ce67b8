import { Inject, Injectable, Logger } from '@nestjs/common';
import { prefixedId, errorMessage } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { newAssetId } from '../core/asset-ids';
import { AssetRepository } from '../core/asset.repository';
import { formatBytes } from '../core/limits';
import type { ProjectScope } from '../core/tenant-scope';
import { safeSegment } from '../downloads/entry-names';
import { objectKeys } from '../objects/object-keys';
import type { CreateUploadBody } from './dto/upload.dto';
import { acceptsContentType, partPlan, UPLOAD_KINDS, UPLOAD_LIMITS, type UploadKind } from './upload-limits';
import { UploadRepository } from './upload.repository';
import { UploadPresenter, type UploadView } from './upload-view';
import { UPLOAD_SETTINGS, type UploadSettings } from './uploads.settings';

/** Objects outlive an upload's expiry by this before the cleanup sweeper deletes them. */
const OBJECT_MARGIN_MS = 3600_000;

/**
 * POST /v1/uploads: everything is checked first (kind, declared type, size,
 * parts, parent), then the object store starts a multipart upload under the
 * key of the asset-to-be, and the record is written with the deletion of that
 * object should it never be imported. The answer carries one signed PUT URL
 * per part: the bytes go from the client to the store directly (S3, or in
 * embedded mode the filesystem store's files route), never through the API.
 */
@Injectable()
export class CreateUpload {
  private readonly logger = new Logger(CreateUpload.name);

  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(UPLOAD_SETTINGS) private readonly settings: UploadSettings,
    private readonly uploads: UploadRepository,
    private readonly assets: AssetRepository,
    private readonly presenter: UploadPresenter,
  ) {}

  async execute(scope: ProjectScope, body: CreateUploadBody): Promise<UploadView> {
    const kind = this.checkRequest(body);
    const plan = partPlan(body.fileSize, body.parts);
    if (typeof plan === 'string') throw ApiError.validation([{ field: 'parts', messages: [plan] }]);
    const parentId = body.assetOptions?.parentId;
    if (parentId && !(await this.assets.findInProject(scope.projectId, parentId))) {
      throw ApiError.notFound(`parent asset ${parentId} not found`, parentId);
    }

    const id = prefixedId('upload');
    const assetId = newAssetId();
    const objectKey = objectKeys.original(scope.projectId, assetId, extensionOf(body.fileName));
    const multipartUploadId = await this.store.createMultipartUpload(objectKey, body.contentType);
    const expiresAt = new Date(Date.now() + this.settings.ttlMs);
    try {
      const row = await this.uploads.create(
        {
          id,
          teamId: scope.teamId,
          projectId: scope.projectId,
          authorId: scope.authorId,
          kind,
          fileName: safeSegment(body.fileName) || 'upload',
          originalFileName: body.fileName,
          contentType: body.contentType,
          fileSize: BigInt(body.fileSize),
          partsCount: plan.partsCount,
          partSize: BigInt(plan.partSize),
          objectKey,
          multipartUploadId,
          parentId: parentId ?? null,
          assetId,
          expiresAt,
        },
        new Date(expiresAt.getTime() + OBJECT_MARGIN_MS),
      );
      return await this.presenter.view(row);
    } catch (error) {
      await this.store.abortMultipartUpload(objectKey, multipartUploadId).catch((abortError: unknown) => {
        this.logger.warn(
          `could not abort multipart upload of ${objectKey}: ${errorMessage(abortError)}`,
        );
      });
      throw error;
    }
  }

  private checkRequest(body: CreateUploadBody): UploadKind {
    for (const field of ['url', 'civitaiModelUrl', 'huggingFaceModelName'] as const) {
      if (body[field] !== undefined)
        throw ApiError.validation([
          { field, messages: [`${field} is not supported: only multipart uploads are`] },
        ]);
    }
    if (body.assetOptions?.collectionIds !== undefined) {
      throw ApiError.validation([
        {
          field: 'assetOptions.collectionIds',
          messages: [
            'collectionIds is not supported: add the asset with PUT /v1/collections/{collectionId}/assets',
          ],
        },
      ]);
    }
    if (body.assetOptions?.hide !== undefined)
      throw ApiError.validation([{ field: 'assetOptions.hide', messages: ['hide is not supported'] }]);
    if (body.kind === 'model')
      throw ApiError.validation([
        { field: 'kind', messages: ['kind model is not supported: uploads here become assets'] },
      ]);
    if (!(UPLOAD_KINDS as readonly string[]).includes(body.kind)) {
      throw ApiError.validation([
        { field: 'kind', messages: [`kind must be one of ${UPLOAD_KINDS.join(', ')}`] },
      ]);
    }
    const kind = body.kind as UploadKind;
    if (!acceptsContentType(kind, body.contentType)) {
      throw ApiError.validation([
        {
          field: 'contentType',
          messages: [
            `contentType ${JSON.stringify(body.contentType)} does not fit kind ${kind}: use an image (png, jpeg, webp, gif, avif, tiff), video/*, audio/*, model/* or application/octet-stream type`,
          ],
        },
      ]);
    }
    const limit =
      kind === 'image' || kind === 'avatar' ? UPLOAD_LIMITS.maxImageBytes : UPLOAD_LIMITS.maxFileBytes;
    if (body.fileSize > limit) {
      throw ApiError.payloadTooLarge(`fileSize is over the ${formatBytes(limit)} limit for kind ${kind}`, {
        limit,
        field: 'fileSize',
      });
    }
    return kind;
  }
}

/** The declared name's extension for the object key (cosmetic: the content decides what the file is). */
function extensionOf(fileName: string): string {
  return /\.([A-Za-z0-9]{1,8})$/.exec(fileName)?.[1]?.toLowerCase() ?? 'bin';
}
