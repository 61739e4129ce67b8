import { errorMessage } from '@genasset/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import type { Upload } from '../generated/prisma/client';
import { StoredObjects } from '../objects/stored-objects';
import { UploadRepository } from './upload.repository';

/**
 * Ends a pending upload as failed (the client's cancel, the sweeper's expiry): the status first,
 * so a concurrent completion loses, then its multipart upload aborted and its object discarded.
 * Answers false when the upload was no longer pending (nothing else is done then).
 */
@Injectable()
export class FailPendingUpload {
  private readonly logger = new Logger(FailPendingUpload.name);

  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly uploads: UploadRepository,
    private readonly objects: StoredObjects,
  ) {}

  async execute(upload: Upload, reason: string): Promise<boolean> {
    if (!(await this.uploads.failPending(upload.id, reason))) return false;
    await this.store.abortMultipartUpload(upload.objectKey, upload.multipartUploadId).catch((error: unknown) => {
      // Not fatal: the bucket's lifecycle rule removes incomplete multipart uploads (docs/assets.md).
      this.logger.warn(`could not abort multipart upload ${upload.id} (${reason}): ${errorMessage(error)}`);
    });
    await this.objects.discard([upload.objectKey]);
    return true;
  }
}
