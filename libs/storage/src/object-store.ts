import type { Readable } from 'node:stream';

export interface PutOptions {
  contentType: string;
  /** Required by S3 for a stream body; when absent a stream goes through a multipart upload. */
  contentLength?: number;
}

export interface UploadOptions {
  contentType: string;
  /** Multipart part size (S3 minimum 5 MiB). Default 8 MiB. */
  partSizeBytes?: number;
  /** Parts uploaded concurrently. Default 4. */
  queueSize?: number;
}

export interface ObjectInfo {
  key: string;
  contentType: string;
  contentLength: number;
  lastModified?: Date;
  /** The store's version tag of the content (S3 ETag, quotes included), where it has one. */
  etag?: string;
}

export interface StoredObject extends ObjectInfo {
  /** The bytes; the caller must consume or destroy it. */
  body: Readable;
}

export interface PutResult {
  key: string;
  /** Bytes stored (counted, so also known for streams of unknown length). */
  contentLength: number;
}

export interface SignedUrlOptions {
  /** Lifetime of the URL, 1 s to 7 days (S3's limit, applied to both stores). */
  expiresInSeconds: number;
  /** Served as `Content-Disposition: attachment` with this file name. */
  downloadName?: string;
  /** Overrides the stored content type in the response. */
  contentType?: string;
}

export interface ListOptions {
  /** Keys fetched per request to the store. Default 1000 (S3's maximum). */
  pageSize?: number;
}

export interface CompletedPart {
  partNumber: number;
  /** ETag header returned by the part upload, quotes included. */
  etag: string;
}

/** A part stored in a multipart upload (`listParts`). */
export interface UploadedPart extends CompletedPart {
  /** Bytes. */
  size: number;
}

export interface PartUrlOptions {
  /** Lifetime of the URL, 1 s to 7 days. */
  expiresInSeconds: number;
  /**
   * Largest body the URL accepts. The filesystem store signs it into the URL
   * and answers 413 beyond it; S3 cannot cap a presigned PUT (it keeps its own
   * 5 GiB part limit), so there the size is checked after completion.
   */
  maxBytes?: number;
}

/**
 * Object storage port. Keys are `/`-separated paths (see `validateObjectKey`);
 * the bucket or directory is configuration, never part of a key. Nothing is
 * ever public: clients get time-limited signed URLs.
 */
export interface ObjectStore {
  readonly kind: 's3' | 'filesystem';
  /** Stores a whole object, replacing any previous one atomically. */
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<PutResult>;
  /** Stores a stream of unknown length (S3: multipart upload). */
  upload(key: string, body: Readable, options: UploadOptions): Promise<PutResult>;
  /** @throws ObjectNotFoundError */
  get(key: string): Promise<StoredObject>;
  /** Metadata, or undefined when there is no such object. */
  head(key: string): Promise<ObjectInfo | undefined>;
  exists(key: string): Promise<boolean>;
  /** Deletes in batches (S3 DeleteObjects, 1000 a request); missing keys are not an error. */
  delete(keys: string[]): Promise<void>;
  /** Every key starting with `prefix`, in ascending byte order, fetched page by page. */
  list(prefix: string, options?: ListOptions): AsyncIterable<string>;
  /** A time-limited GET URL anyone holding it can use. Does not check that the object exists. */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string>;

  // Multipart uploads whose parts clients PUT to signed URLs, S3's protocol:
  // each PUT answers an `ETag` header. The filesystem store serves the same
  // through its files route. Part numbers are 1-10000.

  /** Starts an upload of `key`; returns its id. */
  createMultipartUpload(key: string, contentType: string): Promise<string>;
  /** A time-limited PUT URL for one part. Does not check that the upload exists. */
  signedPartUrl(key: string, uploadId: string, partNumber: number, options: PartUrlOptions): Promise<string>;
  /**
   * The parts stored so far, by ascending number, with their ETags: the
   * server's own record, so a client need not send ETags to complete.
   * @throws MultipartUploadError NoSuchUpload
   */
  listParts(key: string, uploadId: string): Promise<UploadedPart[]>;
  /**
   * Assembles the listed parts (each once, in any order, with the ETag its PUT
   * answered; every part but the last at least 5 MiB) into the object, which
   * then replaces any previous one; the upload is gone afterwards.
   * @throws MultipartUploadError when the list does not match what was uploaded
   */
  completeMultipartUpload(key: string, uploadId: string, parts: CompletedPart[]): Promise<void>;
  /** Discards the upload and its parts. An unknown or finished upload is not an error. */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;

  /** Releases connections; called on application shutdown. */
  close(): Promise<void>;
}
