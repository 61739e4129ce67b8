import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ByteCounter } from '../byte-counter';
import { CheckedObjectStore } from '../checked-object-store';
import { attachmentDisposition, validateDownloadName } from '../response-headers';
import { GetUrlPresigner } from './get-url-presigner';
import type * as Port from '../object-store';
import { type MultipartErrorCode, MultipartUploadError, ObjectNotFoundError } from '../storage.errors';

export interface S3ObjectStoreOptions {
  bucket: string;
  region: string;
  /** Custom endpoint (MinIO, R2, s3rver); AWS when absent. */
  endpoint?: string;
  /**
   * Endpoint written into presigned URLs when clients reach the store by
   * another address than this process does (e.g. `http://minio:9000` inside
   * Compose, `https://files.example.com` outside).
   */
  publicEndpoint?: string;
  /** Static credentials; the AWS default provider chain when absent. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style URLs (`endpoint/bucket/key`), needed by MinIO and s3rver. */
  forcePathStyle?: boolean;
}

const DELETE_BATCH = 1000;
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

export class S3ObjectStore extends CheckedObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly presigner: S3Client;
  private readonly bucket: string;
  private readonly getUrls: GetUrlPresigner;

  constructor(options: S3ObjectStoreOptions) {
    super();
    this.bucket = options.bucket;
    this.client = new S3Client(clientConfig(options, options.endpoint));
    this.presigner = options.publicEndpoint
      ? new S3Client(clientConfig(options, options.publicEndpoint))
      : this.client;
    this.getUrls = new GetUrlPresigner(this.presigner, this.bucket);
  }

  protected async putObject(key: string, body: Buffer | Readable, options: Port.PutOptions): Promise<Port.PutResult> {
    if (!Buffer.isBuffer(body) && options.contentLength === undefined) {
      return this.uploadStream(key, body, { contentType: options.contentType });
    }
    const contentLength = Buffer.isBuffer(body) ? body.length : options.contentLength!;
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: options.contentType,
        ContentLength: contentLength,
      }),
    );
    return { key, contentLength };
  }

  protected async uploadStream(key: string, body: Readable, options: Port.UploadOptions): Promise<Port.PutResult> {
    const counter = new ByteCounter();
    const piping = pipeline(body, counter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter, ContentType: options.contentType },
      partSize: options.partSizeBytes ?? DEFAULT_PART_SIZE,
      queueSize: options.queueSize ?? 4,
      // A failed upload must not leave billable orphan parts behind.
      leavePartsOnError: false,
    });
    try {
      await Promise.all([upload.done(), piping]);
    } catch (error) {
      // Whichever side failed, release the other so nothing waits forever.
      counter.destroy();
      body.destroy();
      throw error;
    }
    return { key, contentLength: counter.bytes };
  }

  protected async getObject(key: string): Promise<Port.StoredObject> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        body: res.Body as Readable,
        contentType: res.ContentType ?? 'application/octet-stream',
        contentLength: res.ContentLength ?? 0,
        lastModified: res.LastModified,
        ...(res.ETag ? { etag: res.ETag } : {}),
      };
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  protected async headObject(key: string): Promise<Port.ObjectInfo | undefined> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        contentType: res.ContentType ?? 'application/octet-stream',
        contentLength: res.ContentLength ?? 0,
        lastModified: res.LastModified,
        ...(res.ETag ? { etag: res.ETag } : {}),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  protected async deleteObjects(keys: string[]): Promise<void> {
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += DELETE_BATCH) {
      const batch = unique.slice(i, i + DELETE_BATCH);
      const res = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      // DeleteObjects answers 200 even when some keys failed.
      const failed = (res.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) {
        throw new Error(
          `failed to delete ${failed.length} object(s): ${failed.map((e) => `${e.Key} (${e.Code})`).join(', ')}`,
        );
      }
    }
  }

  protected async *listKeys(prefix: string, options: Port.ListOptions): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix || undefined,
          MaxKeys: options.pageSize,
          ContinuationToken: token,
        }),
      );
      for (const object of res.Contents ?? []) if (object.Key) yield object.Key;
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  protected async signGetUrl(key: string, options: Port.SignedUrlOptions): Promise<string> {
    // Computed locally (identical to the SDK's getSignedUrl, ~50× cheaper): lists sign one URL per item.
    return this.getUrls.presign(key, {
      expiresIn: options.expiresInSeconds,
      disposition: options.downloadName
        ? attachmentDisposition(validateDownloadName(options.downloadName))
        : undefined,
      contentType: options.contentType,
    });
  }

  protected async startMultipartUpload(key: string, contentType: string): Promise<string> {
    const res = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    );
    if (!res.UploadId) throw new Error('S3 returned no UploadId');
    return res.UploadId;
  }

  protected async signPartUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: Port.PartUrlOptions,
  ): Promise<string> {
    // options.maxBytes cannot be enforced by a presigned PUT; S3 keeps its own 5 GiB part limit.
    const command = new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber });
    return getSignedUrl(this.presigner, command, { expiresIn: options.expiresInSeconds });
  }

  protected async listUploadedParts(key: string, uploadId: string): Promise<Port.UploadedPart[]> {
    const parts: Port.UploadedPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const res = await this.client.send(
          new ListPartsCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumberMarker: marker,
          }),
        );
        for (const part of res.Parts ?? []) {
          if (part.PartNumber === undefined || !part.ETag) continue;
          parts.push({ partNumber: part.PartNumber, etag: part.ETag, size: part.Size ?? 0 });
        }
        marker = res.IsTruncated ? res.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (error) {
      throw asMultipartError(error) ?? error;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  protected async completeUpload(key: string, uploadId: string, parts: Port.CompletedPart[]): Promise<void> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          // S3 wants them ascending; the port takes any order.
          MultipartUpload: {
            Parts: [...parts]
              .sort((a, b) => a.partNumber - b.partNumber)
              .map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })),
          },
        }),
      );
    } catch (error) {
      throw asMultipartError(error) ?? error;
    }
  }

  protected async abortUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (asMultipartError(error)?.code === 'NoSuchUpload') return;
      throw error;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
    if (this.presigner !== this.client) this.presigner.destroy();
  }
}

function clientConfig(options: S3ObjectStoreOptions, endpoint: string | undefined): S3ClientConfig {
  return {
    region: options.region,
    endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Default CRC32 checksums (SDK >= 3.729) are not understood by several
    // S3-compatible servers and would end up in presigned URLs clients cannot satisfy.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** S3's refusals of a part list (or of an unknown upload id), as the port's error. */
const MULTIPART_ERRORS: Record<string, MultipartErrorCode> = {
  NoSuchUpload: 'NoSuchUpload',
  InvalidPart: 'InvalidPart',
  InvalidPartOrder: 'InvalidPartOrder',
  EntityTooSmall: 'EntityTooSmall',
  // An empty part list.
  MalformedXML: 'InvalidPart',
};

function asMultipartError(error: unknown): MultipartUploadError | undefined {
  if (!(error instanceof S3ServiceException)) return undefined;
  const code = MULTIPART_ERRORS[error.name];
  return code ? new MultipartUploadError(code, error.message || error.name) : undefined;
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata?.httpStatusCode === 404;
}
