import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import type { Upload } from '../generated/prisma/client';
import { UPLOAD_SETTINGS, type UploadSettings } from './uploads.settings';

/** An upload as the API shows it (upstream `PostUploadsResponse.upload`, plus partSize and expiresAt). */
export interface UploadView {
  id: string;
  fileName: string;
  originalFileName: string;
  fileSize: number;
  partsCount: number;
  /** Bytes of every part but the last (the client cuts the file so). */
  partSize: number;
  kind: string;
  source: 'multipart';
  /** pending → validating → imported | failed */
  status: string;
  authorId: string;
  ownerId: string;
  contentType: string;
  /** While pending: one signed PUT URL per part, signed afresh on every read. */
  parts?: { number: number; expires: string; url: string }[];
  /** The asset, once imported. */
  entityId?: string;
  errorMessage?: string;
  assetOptions?: { parentId: string };
  /** A pending upload not completed by then fails. */
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

/** Renders uploads; part URLs are signed locally (no storage round trip). */
@Injectable()
export class UploadPresenter {
  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(UPLOAD_SETTINGS) private readonly settings: UploadSettings,
  ) {}

  async view(row: Upload): Promise<UploadView> {
    return {
      id: row.id,
      fileName: row.fileName,
      originalFileName: row.originalFileName,
      fileSize: Number(row.fileSize),
      partsCount: row.partsCount,
      partSize: Number(row.partSize),
      kind: row.kind,
      source: 'multipart',
      status: row.status,
      authorId: row.authorId,
      ownerId: row.projectId,
      contentType: row.contentType,
      ...(row.status === 'pending' ? { parts: await this.parts(row) } : {}),
      ...(row.status === 'imported' && row.assetId ? { entityId: row.assetId } : {}),
      ...(row.errorMessage && row.status === 'failed' ? { errorMessage: row.errorMessage } : {}),
      ...(row.parentId ? { assetOptions: { parentId: row.parentId } } : {}),
      expiresAt: row.expiresAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  private async parts(row: Upload): Promise<UploadView['parts']> {
    // Never valid beyond the upload itself.
    const seconds = Math.max(
      1,
      Math.min(this.settings.partUrlSeconds, Math.floor((row.expiresAt.getTime() - Date.now()) / 1000)),
    );
    const expires = new Date(Math.min(Date.now() + seconds * 1000, row.expiresAt.getTime())).toISOString();
    return Promise.all(
      Array.from({ length: row.partsCount }, async (_, i) => ({
        number: i + 1,
        expires,
        url: await this.store.signedPartUrl(row.objectKey, row.multipartUploadId, i + 1, {
          expiresInSeconds: seconds,
          // Parts are cut at partSize (the last one shorter): the filesystem store refuses more.
          maxBytes: Number(row.partSize),
        }),
      })),
    );
  }
}
