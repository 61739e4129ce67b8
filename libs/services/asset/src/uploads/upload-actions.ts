import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import {
  OBJECT_STORE,
  MultipartUploadError,
  type CompletedPart,
  type ObjectStore,
  type UploadedPart,
} from '@genasset/storage';
import type { Upload } from '../generated/prisma/client';
import type { ProjectScope } from '../core/tenant-scope';
import { StoredObjects } from '../objects/stored-objects';
import type { CompletedPartBody, UploadActionBody } from './dto/upload.dto';
import { FailPendingUpload } from './fail-pending-upload';
import { UploadImporter } from './upload-importer';
import { UploadRepository } from './upload.repository';
import { UploadPresenter, type UploadView } from './upload-view';
import { UPLOAD_SETTINGS, type UploadSettings } from './uploads.settings';

/**
 * GET /v1/uploads/{id} and POST /v1/uploads/{id}/action. `complete` takes the
 * parts the client lists or, with upstream's body alone, the parts the store
 * has (S3 ListParts, or the filesystem store's own record), asks the store to
 * assemble them, checks the size, and queues the import (status `validating`;
 * the importer makes it `imported` or `failed`). `cancel` aborts a pending
 * upload. Both are idempotent where it makes sense: a repeated `complete`
 * answers the current state.
 */
@Injectable()
export class UploadActions {
  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(UPLOAD_SETTINGS) private readonly settings: UploadSettings,
    private readonly uploads: UploadRepository,
    private readonly presenter: UploadPresenter,
    private readonly objects: StoredObjects,
    private readonly importer: UploadImporter,
    private readonly failPending: FailPendingUpload,
  ) {}

  async get(scope: ProjectScope, id: string): Promise<UploadView> {
    return this.presenter.view(await this.load(scope, id));
  }

  async act(scope: ProjectScope, id: string, body: UploadActionBody): Promise<UploadView> {
    const upload = await this.load(scope, id);
    return body.action === 'cancel' ? this.cancel(scope, upload) : this.complete(scope, upload, body.parts);
  }

  private async complete(
    scope: ProjectScope,
    upload: Upload,
    parts: CompletedPartBody[] | undefined,
  ): Promise<UploadView> {
    if (upload.status !== 'pending') {
      if (upload.status === 'failed') throw conflict(upload, 'it failed');
      return this.presenter.view(upload); // already completed: the current state
    }
    if (upload.expiresAt < new Date()) throw conflict(upload, 'it expired');
    try {
      const checked = parts ? checkParts(upload, parts) : storedParts(upload, await this.listParts(upload));
      await this.store.completeMultipartUpload(upload.objectKey, upload.multipartUploadId, checked);
    } catch (error) {
      if (!(error instanceof MultipartUploadError)) throw error;
      // A concurrent complete may have won (the store then no longer knows the upload id).
      const now = await this.load(scope, upload.id);
      if (now.status !== 'pending') return this.presenter.view(now);
      throw new ApiError(
        400,
        'invalid_parts',
        `storage refused the parts (${error.code}): ${error.message}. Check every partNumber and its ETag, or complete without parts`,
        { reason: error.code },
      );
    }
    const stored = await this.store.head(upload.objectKey);
    if (!stored || stored.contentLength !== Number(upload.fileSize)) {
      const reason = `the uploaded file has ${stored?.contentLength ?? 0} bytes, but fileSize declared ${upload.fileSize}`;
      if (await this.uploads.failPending(upload.id, reason)) await this.objects.discard([upload.objectKey]);
      return this.presenter.view(await this.load(scope, upload.id));
    }
    // The object now exists: it is deleted if the import has not taken it within the upload's lifetime.
    await this.uploads.markCompleted(upload.id, new Date(Date.now() + this.settings.ttlMs));
    this.importer.wake();
    return this.presenter.view(await this.load(scope, upload.id));
  }

  private async cancel(scope: ProjectScope, upload: Upload): Promise<UploadView> {
    if (upload.status === 'failed') return this.presenter.view(upload);
    if (upload.status !== 'pending') throw conflict(upload, 'it is already complete');
    await this.failPending.execute(upload, 'canceled by the client');
    return this.presenter.view(await this.load(scope, upload.id));
  }

  private listParts(upload: Upload): Promise<UploadedPart[]> {
    return this.store.listParts(upload.objectKey, upload.multipartUploadId);
  }

  private async load(scope: ProjectScope, id: string): Promise<Upload> {
    const upload = /^upload_[0-9A-Za-z]{1,64}$/.test(id)
      ? await this.uploads.find(scope.projectId, id)
      : null;
    if (!upload) throw ApiError.notFound(`upload ${id} not found`, id);
    return upload;
  }
}

function conflict(upload: Upload, why: string): ApiError {
  return new ApiError(409, 'conflict', `upload ${upload.id} cannot be changed: ${why}`, {
    uploadId: upload.id,
    status: upload.status,
  });
}

const partsError = (message: string) => ApiError.validation([{ field: 'parts', messages: [message] }]);

/**
 * Without a list from the client: the parts the store holds, which must be
 * every part 1..partsCount (400 naming the missing ones; the upload stays
 * pending, so the client can PUT them and complete again).
 */
function storedParts(upload: Upload, stored: UploadedPart[]): CompletedPart[] {
  const byNumber = new Map(stored.map((part) => [part.partNumber, part]));
  const wanted = Array.from({ length: upload.partsCount }, (_, i) => i + 1);
  const missing = wanted.filter((n) => !byNumber.has(n));
  if (missing.length > 0) {
    const shown = missing.length > 20 ? `${missing.slice(0, 20).join(', ')}, …` : missing.join(', ');
    throw partsError(
      `${missing.length} of ${upload.partsCount} parts have not been uploaded (${shown}): PUT them to their URLs, then complete again`,
    );
  }
  return wanted.map((n) => ({ partNumber: n, etag: byNumber.get(n)!.etag }));
}

/** Every part exactly once, numbered 1..partsCount (the store would refuse the rest less clearly). */
function checkParts(upload: Upload, parts: CompletedPartBody[]): CompletedPart[] {
  const fail = partsError;
  if (parts.length !== upload.partsCount)
    throw fail(`parts must list all ${upload.partsCount} parts, got ${parts.length}`);
  const seen = new Set<number>();
  for (const part of parts) {
    if (part.partNumber > upload.partsCount)
      throw fail(`partNumber ${part.partNumber} is beyond the upload's ${upload.partsCount} parts`);
    if (seen.has(part.partNumber)) throw fail(`partNumber ${part.partNumber} is listed twice`);
    seen.add(part.partNumber);
  }
  return parts.map((p) => ({
    partNumber: p.partNumber,
    etag: p.etag.startsWith('"') ? p.etag : `"${p.etag}"`,
  }));
}
