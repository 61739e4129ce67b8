import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteCounter } from '../byte-counter';
import { CheckedObjectStore } from '../checked-object-store';
import { encodeKeyPath, validateObjectKey } from '../object-key';
import { validateMaxPartBytes } from '../multipart-rules';
import type * as Port from '../object-store';
import { validateDownloadName } from '../response-headers';
import { ContentLengthMismatchError, InvalidObjectKeyError, ObjectNotFoundError } from '../storage.errors';
import { FilesystemMultipart } from './filesystem-multipart';
import { type SignatureCheck, type SignedFileParams, UrlSigner } from './url-signer';

export interface FilesystemObjectStoreOptions {
  /** Directory holding the objects, e.g. `<DATA_DIR>/objects`. */
  rootDir: string;
  signingSecret: string | Buffer;
  /** Base of the URLs handed out, e.g. `http://localhost:8080`. */
  publicBaseUrl: string;
  /** Route serving the files (FilesModule). */
  filesPath?: string;
}

export const FILES_PATH = '/v1/files';
const META_SUFFIX = '.meta.json';
const TMP_DIR = '.tmp';
/** Multipart uploads in progress (see FilesystemMultipart). */
const MULTIPART_DIR = '.multipart';
const RESERVED_DIRS = [TMP_DIR, MULTIPART_DIR];

interface Meta {
  contentType: string;
}

/**
 * Objects as plain files for embedded mode: `<root>/<key>` plus a
 * `<key>.meta.json` sidecar with the content type. Writes go to `<root>/.tmp`
 * and are renamed into place, so a reader sees the old object or the new one,
 * never a partial file. Keys ending in `.meta.json` or starting with `.tmp/`
 * or `.multipart/` are reserved, and a key cannot be both an object and a
 * "folder" of others (`a` and `a/b`), which S3 would allow. Multipart uploads
 * take their parts through the files route's signed PUT URLs.
 */
export class FilesystemObjectStore extends CheckedObjectStore {
  readonly kind = 'filesystem' as const;
  readonly rootDir: string;
  private readonly tmpDir: string;
  private readonly signer: UrlSigner;
  private readonly publicBaseUrl: string;
  /** Route serving the files and receiving part uploads. */
  readonly filesPath: string;
  private readonly multipart: FilesystemMultipart;

  constructor(options: FilesystemObjectStoreOptions) {
    super();
    this.rootDir = resolve(options.rootDir);
    this.tmpDir = join(this.rootDir, TMP_DIR);
    this.signer = new UrlSigner(options.signingSecret);
    this.publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
    this.filesPath = options.filesPath ?? FILES_PATH;
    this.multipart = new FilesystemMultipart(
      join(this.rootDir, MULTIPART_DIR),
      this.tmpDir,
      (key, body, contentType) => this.put(key, body, { contentType }),
    );
  }

  protected async putObject(key: string, body: Buffer | Readable, options: Port.PutOptions): Promise<Port.PutResult> {
    const path = this.pathOf(key);
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, randomUUID());
    try {
      const counter = new ByteCounter();
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, counter, createWriteStream(tmp, { flags: 'wx' }));
      if (options.contentLength !== undefined && counter.bytes !== options.contentLength) {
        throw new ContentLengthMismatchError(options.contentLength, counter.bytes);
      }
      const meta: Meta = { contentType: options.contentType };
      await writeFile(`${tmp}${META_SUFFIX}`, JSON.stringify(meta), { flag: 'wx' });
      await this.publish(key, path, tmp);
      return { key, contentLength: counter.bytes };
    } finally {
      await rm(tmp, { force: true });
      await rm(`${tmp}${META_SUFFIX}`, { force: true });
    }
  }

  protected uploadStream(key: string, body: Readable, options: Port.UploadOptions): Promise<Port.PutResult> {
    return this.put(key, body, { contentType: options.contentType });
  }

  protected async getObject(key: string): Promise<Port.StoredObject> {
    const path = this.pathOf(key);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
    try {
      // Size and type come from the opened file, so a concurrent replace cannot mix versions of the bytes.
      const stats = await handle.stat();
      if (!stats.isFile()) throw new ObjectNotFoundError(key);
      const meta = await this.readMeta(path);
      return {
        key,
        body: handle.createReadStream(),
        contentType: meta.contentType,
        contentLength: stats.size,
        lastModified: stats.mtime,
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  protected async headObject(key: string): Promise<Port.ObjectInfo | undefined> {
    const path = this.pathOf(key);
    try {
      const stats = await stat(path);
      if (!stats.isFile()) return undefined;
      const meta = await this.readMeta(path);
      return { key, contentType: meta.contentType, contentLength: stats.size, lastModified: stats.mtime };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  protected async deleteObjects(keys: string[]): Promise<void> {
    const paths = keys.map((key) => this.pathOf(key));
    for (const path of paths) {
      await rm(path, { force: true });
      await rm(`${path}${META_SUFFIX}`, { force: true });
      await this.pruneEmptyDirs(path);
    }
  }

  protected async *listKeys(prefix: string): AsyncIterable<string> {
    const slash = prefix.lastIndexOf('/');
    const base = slash < 0 ? '' : prefix.slice(0, slash);
    const keys: string[] = [];
    await this.collect(base, keys);
    // S3 order is by UTF-8 bytes, which is not JavaScript's UTF-16 order.
    const matching = keys
      .filter((k) => k.startsWith(prefix))
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    yield* matching;
  }

  protected async signGetUrl(key: string, options: Port.SignedUrlOptions): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + options.expiresInSeconds;
    const params = {
      key,
      expires,
      downloadName:
        options.downloadName === undefined ? undefined : validateDownloadName(options.downloadName),
      contentType: options.contentType,
    };
    const query = new URLSearchParams({ expires: String(expires) });
    if (params.downloadName !== undefined) query.set('name', params.downloadName);
    if (params.contentType !== undefined) query.set('type', params.contentType);
    query.set('signature', this.signer.sign(params));
    return `${this.publicBaseUrl}${this.filesPath}/${encodeKeyPath(key)}?${query.toString()}`;
  }

  /** Checks a request to the files route; see `FilesController` and `PartUploadRoute`. */
  verifySignature(params: SignedFileParams, signature: string): SignatureCheck {
    return this.signer.verify(params, signature);
  }

  protected startMultipartUpload(key: string, contentType: string): Promise<string> {
    return this.multipart.create(key, contentType);
  }

  protected async signPartUrl(
    key: string,
    uploadId: string,
    partNumber: number,
    options: Port.PartUrlOptions,
  ): Promise<string> {
    const part = { uploadId, partNumber, maxBytes: validateMaxPartBytes(options.maxBytes) };
    const expires = Math.floor(Date.now() / 1000) + options.expiresInSeconds;
    // Query names as S3's (uploadId, partNumber), so clients handle both URLs alike.
    const query = new URLSearchParams({
      uploadId,
      partNumber: String(partNumber),
      expires: String(expires),
      max: String(part.maxBytes),
    });
    query.set('signature', this.signer.sign({ key, expires, part }));
    return `${this.publicBaseUrl}${this.filesPath}/${encodeKeyPath(key)}?${query.toString()}`;
  }

  /**
   * Stores a part PUT to a signed URL (the files route checked the signature).
   * @throws PartTooLargeError beyond `maxBytes`; MultipartUploadError for an unknown upload
   */
  async receivePart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    maxBytes: number,
  ): Promise<{ etag: string; size: number }> {
    this.pathOf(key);
    return this.multipart.writePart(key, uploadId, partNumber, body, validateMaxPartBytes(maxBytes));
  }

  protected listUploadedParts(key: string, uploadId: string): Promise<Port.UploadedPart[]> {
    return this.multipart.listParts(key, uploadId);
  }

  protected async completeUpload(key: string, uploadId: string, parts: Port.CompletedPart[]): Promise<void> {
    await this.multipart.complete(key, uploadId, parts);
  }

  protected async abortUpload(key: string, uploadId: string): Promise<void> {
    await this.multipart.abort(key, uploadId);
  }

  async close(): Promise<void> {}

  /** Meta first, then data: once the data file is visible its content type is too. */
  private async publish(key: string, path: string, tmp: string): Promise<void> {
    const parent = resolve(path, '..');
    for (let attempt = 0; ; attempt++) {
      try {
        await mkdir(parent, { recursive: true });
        if ((await stat(path).catch(() => undefined))?.isDirectory()) throw conflict(key);
        await rename(`${tmp}${META_SUFFIX}`, `${path}${META_SUFFIX}`);
        await rename(tmp, path);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A concurrent delete may prune the parent between mkdir and rename.
        if (code === 'ENOENT' && attempt < 3) continue;
        // mkdir meets a file where a folder should be: `a` exists and we write `a/b`.
        if (code === 'ENOTDIR' || code === 'EEXIST') throw conflict(key);
        throw error;
      }
    }
  }

  private async readMeta(path: string): Promise<Meta> {
    try {
      const meta = JSON.parse(await readFile(`${path}${META_SUFFIX}`, 'utf8')) as Partial<Meta>;
      return { contentType: meta.contentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isMissing(error) || error instanceof SyntaxError)
        return { contentType: 'application/octet-stream' };
      throw error;
    }
  }

  private async collect(dir: string, into: string[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir ? join(this.rootDir, ...dir.split('/')) : this.rootDir, {
        withFileTypes: true,
      });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const key = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!dir && RESERVED_DIRS.includes(entry.name)) continue;
        await this.collect(key, into);
      } else if (entry.isFile() && !entry.name.endsWith(META_SUFFIX)) {
        into.push(key);
      }
    }
  }

  /** Removes now-empty folders up to the root so listing does not walk dead branches. */
  private async pruneEmptyDirs(path: string): Promise<void> {
    let dir = resolve(path, '..');
    while (dir !== this.rootDir && dir.startsWith(this.rootDir + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      dir = resolve(dir, '..');
    }
  }

  /** Keys under the reserved names, and keys that would leave the root, are refused too. */
  protected override checkKey(key: string): void {
    this.pathOf(key);
  }

  /** Validates a key and maps it to a path that cannot leave the root. */
  private pathOf(key: string): string {
    validateObjectKey(key);
    if (key.endsWith(META_SUFFIX))
      throw new InvalidObjectKeyError(key, `keys ending in ${META_SUFFIX} are reserved`);
    for (const reserved of RESERVED_DIRS)
      if (key === reserved || key.startsWith(`${reserved}/`))
        throw new InvalidObjectKeyError(key, `keys under ${reserved}/ are reserved`);
    const path = join(this.rootDir, ...key.split('/'));
    if (!path.startsWith(this.rootDir + sep)) throw new InvalidObjectKeyError(key, 'escapes the store');
    return path;
  }
}

function conflict(key: string): InvalidObjectKeyError {
  return new InvalidObjectKeyError(key, 'conflicts with an existing object or folder of objects');
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
