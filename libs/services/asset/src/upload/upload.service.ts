import { Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import type { Asset } from '../generated/prisma/client';
import { newAssetId } from '../core/asset-ids';
import { AssetPresenter, type AssetView } from '../core/asset-presenter';
import { AssetRepository } from '../core/asset.repository';
import { AssetWriter, imageProperties, type NewAsset } from '../core/asset-writer';
import { decodeBase64Payload } from '../core/base64-payload';
import { parseCanvas } from '../core/canvas-content';
import { probeImage, webRendition } from '../core/images';
import { tryImageEmbedding } from '../embeddings/image-embedding';
import { LIMITS } from '../core/limits';
import type { ProjectScope } from '../core/tenant-scope';
import { objectKeys } from '../objects/object-keys';
import { StoredObjects } from '../objects/stored-objects';
import type { UploadAssetBody } from './dto/upload-asset.body';

interface PendingObject {
  key: string;
  bytes: Buffer;
  contentType: string;
}

/**
 * POST /v1/assets. Everything is checked before a byte is stored: the
 * content is decoded and sniffed (the name and any declared type are
 * ignored), the parent looked up. Then the objects are written, then the row
 * and its `asset.created` fact in one transaction; if anything fails after
 * the first object was written, the objects are deleted again.
 */
@Injectable()
export class UploadService {
  constructor(
    private readonly assets: AssetRepository,
    private readonly writer: AssetWriter,
    private readonly objects: StoredObjects,
    private readonly presenter: AssetPresenter,
  ) {}

  async upload(scope: ProjectScope, body: UploadAssetBody, original: boolean): Promise<AssetView> {
    if (body.collectionIds !== undefined) {
      throw ApiError.validation([
        { field: 'collectionIds', messages: ['collectionIds is not supported on upload: add the asset with PUT /v1/collections/{collectionId}/assets'] },
      ]);
    }
    if (body.hide !== undefined) throw ApiError.validation([{ field: 'hide', messages: ['hide is not supported'] }]);
    if (body.parentId && !(await this.assets.findInProject(scope.projectId, body.parentId))) {
      throw ApiError.notFound(`parent asset ${body.parentId} not found`, body.parentId);
    }
    const id = newAssetId();
    const { asset, objects } =
      body.image !== undefined
        ? await this.prepareImage(scope, id, body.image)
        : body.canvas !== undefined
          ? await this.prepareCanvas(scope, id, body.canvas, body.thumbnail)
          : missingContent();
    const stored: string[] = [];
    let row: Asset;
    try {
      for (const object of objects) {
        stored.push(object.key);
        await this.objects.put(object.key, object.bytes, object.contentType);
      }
      row = await this.assets.transaction((tx) => this.writer.create(tx, { ...asset, id, name: body.name, parentId: body.parentId }));
    } catch (error) {
      await this.objects.discard(stored);
      throw error;
    }
    // Committed: from here on the objects belong to the row, whatever happens.
    return this.presenter.view(row, { original, viewer: scope.projectId });
  }

  private async prepareImage(scope: ProjectScope, id: string, image: string) {
    const bytes = decodeBase64Payload(image, 'image', LIMITS.maxImageBytes);
    const probed = await probeImage(bytes);
    const rendition = await webRendition(bytes, probed);
    const storageKey = objectKeys.original(scope.projectId, id, probed.extension);
    const renditionKey = rendition ? objectKeys.rendition(scope.projectId, id) : undefined;
    const objects: PendingObject[] = [{ key: storageKey, bytes, contentType: probed.mimeType }];
    if (rendition && renditionKey) objects.push({ key: renditionKey, bytes: rendition, contentType: 'image/webp' });
    const asset: NewAsset = {
      owner: scope,
      type: 'uploaded',
      kind: 'image',
      mimeType: probed.mimeType,
      storageKey,
      renditionKey,
      properties: imageProperties(probed),
      embedding: await tryImageEmbedding(bytes),
    };
    return { asset, objects };
  }

  private async prepareCanvas(scope: ProjectScope, id: string, canvas: string, thumbnail?: string) {
    const content = parseCanvas(canvas, 'canvas');
    const storageKey = objectKeys.original(scope.projectId, id, 'json');
    const objects: PendingObject[] = [{ key: storageKey, bytes: content.bytes, contentType: 'application/json' }];
    let thumbnailKey: string | undefined;
    if (thumbnail !== undefined) {
      const bytes = decodeBase64Payload(thumbnail, 'thumbnail', LIMITS.maxThumbnailBytes);
      const probed = await probeImage(bytes, 'thumbnail');
      thumbnailKey = objectKeys.thumbnail(scope.projectId, id, probed.extension);
      objects.push({ key: thumbnailKey, bytes, contentType: probed.mimeType });
    }
    const asset: NewAsset = {
      owner: scope,
      type: 'canvas',
      kind: 'json',
      mimeType: 'application/json',
      storageKey,
      thumbnailKey,
      properties: content.properties,
    };
    return { asset, objects };
  }
}

function missingContent(): never {
  throw ApiError.validation([{ field: 'image', messages: ['image or canvas is required'] }]);
}
