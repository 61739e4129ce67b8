import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { ZipFile } from 'yazl';
import { OBJECT_STORE, ObjectNotFoundError, type ObjectStore, type StoredObject } from '@genasset/storage';
import type { ArchiveAsset } from './download.repository';

/** A reason the archive can never be built, whatever the retries: the job fails with this message. */
export class ArchiveFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveFailure';
  }
}

export interface ArchiveEntry {
  asset: ArchiveAsset;
  /** Safe, unique path inside the archive. */
  name: string;
}

export interface ArchiveResult {
  /** Bytes of the zip file. */
  size: number;
  /** Assets deleted (row and object) while the archive was being written: left out. */
  skipped: string[];
  /** Entries written. */
  files: number;
}

export interface WriteOptions {
  signal: AbortSignal;
  /** Called after each entry (written or skipped) with the count so far. */
  onEntry?: (done: number) => void;
  /** Whether an asset whose object is missing still exists (true: storage lost it → the job fails). */
  stillExists: (assetId: string) => Promise<boolean>;
  /** Multipart part size of the upload (bigger archives need bigger parts: S3 allows 10,000). */
  partSizeBytes: number;
}

/** Objects opened ahead of the entry being written, so small files do not wait on a round trip each. */
const PREFETCH = 3;

/** Content already compressed gains nothing from deflate: stored as it is (faster, same size). */
function compressible(mimeType: string): boolean {
  return /^(text\/|application\/json|model\/gltf\+json|model\/obj|application\/x-ply|image\/tiff|image\/bmp)/.test(
    mimeType,
  );
}

/**
 * Streams a zip of the entries' objects into object storage: each object is
 * read from the store and piped into the archive as the upload consumes it
 * (multipart for S3), so memory stays at a few parts whatever the archive
 * size. ZIP64 is used by yazl where sizes need it.
 */
@Injectable()
export class ArchiveWriter {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  async write(key: string, entries: readonly ArchiveEntry[], options: WriteOptions): Promise<ArchiveResult> {
    const zip = new ZipFile();
    // yazl types it as NodeJS.ReadableStream; it is a PassThrough.
    const output = zip.outputStream as Readable;
    let failure: unknown;
    let current: StoredObject | undefined;
    let rejectFailed: (error: unknown) => void = () => undefined;
    // Settles only on failure: every wait of the feed races it, so nothing waits on a stream that stopped.
    const failed = new Promise<never>((_, reject) => (rejectFailed = reject));
    failed.catch(() => undefined);
    const opened: (Promise<StoredObject | undefined> | undefined)[] = [];
    const fail = (error: unknown) => {
      if (failure !== undefined) return;
      failure = error ?? new Error('archive failed');
      rejectFailed(failure);
      current?.body.destroy();
      output.destroy(failure instanceof Error ? failure : new Error(String(failure)));
    };
    zip.on('error', fail);
    const onAbort = () => fail(options.signal.reason ?? new Error('aborted'));
    if (options.signal.aborted) onAbort();
    options.signal.addEventListener('abort', onAbort);

    const upload = this.store
      .upload(key, output, { contentType: 'application/zip', partSizeBytes: options.partSizeBytes })
      .catch((error: unknown) => {
        fail(error); // the feed stops too
        throw error;
      });
    const skipped: string[] = [];
    let files = 0;
    const feed = async () => {
      for (let i = 0; i < entries.length; i++) {
        for (let j = i; j < Math.min(entries.length, i + PREFETCH); j++) {
          if (opened[j]) continue;
          const opening = this.open(entries[j].asset.storageKey);
          opening.catch(() => undefined); // awaited in turn below; must not count as unhandled meanwhile
          opened[j] = opening;
        }
        const object = await Promise.race([opened[i]!, failed]);
        opened[i] = undefined;
        const { asset, name } = entries[i];
        if (!object) {
          if (await Promise.race([options.stillExists(asset.id), failed])) {
            throw new ArchiveFailure(
              `the content of asset ${asset.id} is missing from storage; remove it from the batch or contact support`,
            );
          }
          skipped.push(asset.id);
        } else {
          current = object;
          await Promise.race([this.addEntry(zip, object, name, asset), failed]);
          current = undefined;
          files++;
        }
        options.onEntry?.(i + 1);
      }
      zip.end();
    };
    try {
      const [stored] = await Promise.all([upload, feed().catch((error: unknown) => fail(error))]);
      if (failure !== undefined) throw failure;
      return { size: stored.contentLength, skipped, files };
    } catch (error) {
      throw failure ?? error;
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      // Objects opened ahead of a failure.
      for (const pending of opened)
        void pending?.then(
          (o) => o?.body.destroy(),
          () => undefined,
        );
    }
  }

  /** The object, or undefined when there is none (deleted, or lost by storage). */
  private async open(key: string): Promise<StoredObject | undefined> {
    try {
      return await this.store.get(key);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) return undefined;
      throw error;
    }
  }

  /** Adds one entry and resolves once its bytes are in the archive (yazl writes entries one at a time). */
  private addEntry(zip: ZipFile, object: StoredObject, name: string, asset: ArchiveAsset): Promise<void> {
    return new Promise((resolve, reject) => {
      const body = object.body;
      body.once('error', reject);
      body.once('end', () => resolve());
      zip.addReadStream(body, name, {
        mtime: asset.createdAt,
        compress: compressible(asset.mimeType),
        ...(object.contentLength > 0 ? { size: object.contentLength } : {}),
      });
    });
  }
}
