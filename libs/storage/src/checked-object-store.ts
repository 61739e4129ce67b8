import type { Readable } from 'node:stream';
import { validateExpiry } from './expiry';
import { validatePartNumber } from './multipart-rules';
import { validateObjectKey, validateObjectPrefix } from './object-key';
import type {
  CompletedPart,
  ListOptions,
  ObjectInfo,
  ObjectStore,
  PartUrlOptions,
  PutOptions,
  PutResult,
  SignedUrlOptions,
  StoredObject,
  UploadedPart,
  UploadOptions,
} from './object-store';
import { validateContentType } from './response-headers';

/**
 * What the filesystem and S3 stores do alike: every call of the port checks its arguments here
 * (key, content type, URL lifetime, part number), before the store touches its backend, so both
 * refuse the same input with the same error; `exists` is `head`. The stores implement the
 * protected methods, which get checked arguments. Checks are inside async methods: a bad argument
 * is a rejected promise, as the port's callers expect.
 */
export abstract class CheckedObjectStore implements ObjectStore {
  abstract readonly kind: ObjectStore['kind'];

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<PutResult> {
    this.checkKey(key);
    validateContentType(options.contentType);
    return this.putObject(key, body, options);
  }

  async upload(key: string, body: Readable, options: UploadOptions): Promise<PutResult> {
    this.checkKey(key);
    validateContentType(options.contentType);
    return this.uploadStream(key, body, options);
  }

  async get(key: string): Promise<StoredObject> {
    this.checkKey(key);
    return this.getObject(key);
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    this.checkKey(key);
    return this.headObject(key);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== undefined;
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) this.checkKey(key);
    await this.deleteObjects(keys);
  }

  /** A generator, as the stores' were: a bad prefix throws at the first step of the iteration. */
  async *list(prefix: string, options: ListOptions = {}): AsyncIterable<string> {
    validateObjectPrefix(prefix);
    yield* this.listKeys(prefix, options);
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    this.checkKey(key);
    return this.signGetUrl(key, {
      ...options,
      expiresInSeconds: validateExpiry(options.expiresInSeconds),
      contentType: options.contentType === undefined ? undefined : validateContentType(options.contentType),
    });
  }

  async createMultipartUpload(key: string, contentType: string): Promise<string> {
    this.checkKey(key);
    return this.startMultipartUpload(key, validateContentType(contentType));
  }

  async signedPartUrl(key: string, uploadId: string, partNumber: number, options: PartUrlOptions): Promise<string> {
    this.checkKey(key);
    return this.signPartUrl(key, uploadId, validatePartNumber(partNumber), {
      ...options,
      expiresInSeconds: validateExpiry(options.expiresInSeconds),
    });
  }

  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    this.checkKey(key);
    return this.listUploadedParts(key, uploadId);
  }

  async completeMultipartUpload(key: string, uploadId: string, parts: CompletedPart[]): Promise<void> {
    this.checkKey(key);
    await this.completeUpload(key, uploadId, parts);
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    this.checkKey(key);
    await this.abortUpload(key, uploadId);
  }

  abstract close(): Promise<void>;

  /** Throws InvalidObjectKeyError for a key this store does not take; a store may refuse more. */
  protected checkKey(key: string): void {
    validateObjectKey(key);
  }

  protected abstract putObject(key: string, body: Buffer | Readable, options: PutOptions): Promise<PutResult>;
  protected abstract uploadStream(key: string, body: Readable, options: UploadOptions): Promise<PutResult>;
  protected abstract getObject(key: string): Promise<StoredObject>;
  protected abstract headObject(key: string): Promise<ObjectInfo | undefined>;
  protected abstract deleteObjects(keys: string[]): Promise<void>;
  protected abstract listKeys(prefix: string, options: ListOptions): AsyncIterable<string>;
  /** `downloadName` is as the caller gave it: each store checks it as it uses it. */
  protected abstract signGetUrl(key: string, options: SignedUrlOptions): Promise<string>;
  protected abstract startMultipartUpload(key: string, contentType: string): Promise<string>;
  protected abstract signPartUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: PartUrlOptions,
  ): Promise<string>;
  protected abstract listUploadedParts(key: string, uploadId: string): Promise<UploadedPart[]>;
  protected abstract completeUpload(key: string, uploadId: string, parts: CompletedPart[]): Promise<void>;
  protected abstract abortUpload(key: string, uploadId: string): Promise<void>;
}
