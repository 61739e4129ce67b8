import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CompletedPart, PutResult, UploadedPart } from '../object-store';
import { bareEtag, MIN_PART_BYTES, validatePartNumber } from '../multipart-rules';
import { MultipartUploadError } from '../storage.errors';

/** A part body longer than its URL allows; nothing was stored. */
export class PartTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`a part may have at most ${limit} bytes`);
    this.name = 'PartTooLargeError';
  }
}

interface UploadRecord {
  key: string;
  contentType: string;
}

interface StoredPart extends UploadedPart {
  file: string;
}

const UPLOAD_ID = /^[0-9a-f]{32}$/;
// `p00001.<md5>`: the ETag is in the name, so a part and its ETag appear in one rename.
const PART_FILE = /^p(\d{5})\.([0-9a-f]{32})$/;
const RECORD = 'upload.json';

/**
 * S3-style multipart uploads for the filesystem store: one folder per upload
 * (`<root>/.multipart/<uploadId>/`) with its key and content type and the
 * parts received so far. A part is streamed to a temp file while its MD5 (the
 * ETag, as S3 computes it for a part) and size are counted, and renamed into
 * place only once complete and within its limit. Completion streams the parts,
 * one after the other, through the store's ordinary `put`, so the object
 * appears atomically; then the folder goes. Nothing is ever held in memory
 * beyond a stream chunk.
 */
export class FilesystemMultipart {
  constructor(
    private readonly dir: string,
    private readonly tmpDir: string,
    private readonly put: (key: string, body: Readable, contentType: string) => Promise<PutResult>,
  ) {}

  async create(key: string, contentType: string): Promise<string> {
    const uploadId = randomBytes(16).toString('hex');
    const folder = join(this.dir, uploadId);
    await mkdir(folder, { recursive: true });
    const record: UploadRecord = { key, contentType };
    await writeFile(join(folder, RECORD), JSON.stringify(record), { flag: 'wx' });
    return uploadId;
  }

  /** Stores one part from a request body; returns its quoted ETag. */
  async writePart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    maxBytes: number,
  ): Promise<{ etag: string; size: number }> {
    validatePartNumber(partNumber);
    const folder = await this.folderOf(key, uploadId);
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, randomUUID());
    try {
      const digest = new PartDigest(maxBytes);
      const writing = pipeline(digest, createWriteStream(tmp, { flags: 'wx' }));
      feed(body, digest);
      try {
        await writing;
      } finally {
        body.unpipe(digest);
      }
      const md5 = digest.md5();
      const name = `p${String(partNumber).padStart(5, '0')}.${md5}`;
      try {
        await rename(tmp, join(folder, name));
      } catch (error) {
        // Aborted or completed while the part was arriving.
        if (isMissing(error)) throw noSuchUpload(uploadId);
        throw error;
      }
      await this.pruneOlderCopies(folder, partNumber, name);
      return { etag: `"${md5}"`, size: digest.bytes };
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    // An abort under way removes the folder after its record was read: that is an upload gone too.
    const parts = await this.storedParts(await this.folderOf(key, uploadId)).catch((error: unknown) => {
      throw isMissing(error) ? noSuchUpload(uploadId) : error;
    });
    return parts.map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
  }

  async complete(key: string, uploadId: string, listed: CompletedPart[]): Promise<void> {
    const parts = [...listed].sort((a, b) => a.partNumber - b.partNumber);
    const folder = await this.folderOf(key, uploadId);
    const record = await this.record(folder, uploadId);
    const stored = new Map((await this.storedParts(folder)).map((part) => [part.partNumber, part]));
    if (parts.length === 0) throw new MultipartUploadError('InvalidPart', 'no parts were listed');
    const files: string[] = [];
    parts.forEach((part, index) => {
      if (index > 0 && part.partNumber <= parts[index - 1].partNumber)
        throw new MultipartUploadError('InvalidPartOrder', `part ${part.partNumber} is listed twice`);
      const found = stored.get(part.partNumber);
      if (!found || bareEtag(found.etag) !== bareEtag(part.etag))
        throw new MultipartUploadError(
          'InvalidPart',
          `part ${part.partNumber} was not uploaded, or its ETag does not match`,
        );
      if (index < parts.length - 1 && found.size < MIN_PART_BYTES)
        throw new MultipartUploadError(
          'EntityTooSmall',
          `part ${part.partNumber} has ${found.size} bytes: every part but the last must have at least ${MIN_PART_BYTES}`,
        );
      files.push(found.file);
    });
    await this.put(record.key, Readable.from(concatenate(files)), record.contentType);
    await rm(folder, { recursive: true, force: true });
  }

  async abort(key: string, uploadId: string): Promise<void> {
    let folder;
    try {
      folder = await this.folderOf(key, uploadId);
    } catch (error) {
      if (error instanceof MultipartUploadError) return;
      throw error;
    }
    await rm(folder, { recursive: true, force: true });
  }

  /** The upload's folder, after checking it exists and belongs to `key` (S3 answers NoSuchUpload otherwise). */
  private async folderOf(key: string, uploadId: string): Promise<string> {
    if (!UPLOAD_ID.test(uploadId)) throw noSuchUpload(uploadId);
    const folder = join(this.dir, uploadId);
    if ((await this.record(folder, uploadId)).key !== key) throw noSuchUpload(uploadId);
    return folder;
  }

  private async record(folder: string, uploadId: string): Promise<UploadRecord> {
    try {
      return JSON.parse(await readFile(join(folder, RECORD), 'utf8')) as UploadRecord;
    } catch (error) {
      if (isMissing(error)) throw noSuchUpload(uploadId);
      throw error;
    }
  }

  /** One entry per part number: the newest copy where a part was uploaded more than once. */
  private async storedParts(folder: string): Promise<StoredPart[]> {
    const byNumber = new Map<number, StoredPart & { mtimeNs: bigint }>();
    for (const name of await readdir(folder)) {
      const match = PART_FILE.exec(name);
      if (!match) continue;
      const file = join(folder, name);
      const stats = await stat(file, { bigint: true }).catch(() => undefined);
      if (!stats) continue; // replaced meanwhile
      const partNumber = Number(match[1]);
      const previous = byNumber.get(partNumber);
      if (previous && previous.mtimeNs > stats.mtimeNs) continue;
      byNumber.set(partNumber, {
        partNumber,
        etag: `"${match[2]}"`,
        size: Number(stats.size),
        file,
        mtimeNs: stats.mtimeNs,
      });
    }
    return [...byNumber.values()]
      .sort((a, b) => a.partNumber - b.partNumber)
      .map(({ mtimeNs: _, ...part }) => part);
  }

  /**
   * A part uploaded again replaces the earlier copy (as on S3). Only copies
   * older than this one go, so two concurrent uploads of a part never delete
   * each other's; the newest wins in `storedParts` either way.
   */
  private async pruneOlderCopies(folder: string, partNumber: number, kept: string): Promise<void> {
    const prefix = `p${String(partNumber).padStart(5, '0')}.`;
    const mine = (await stat(join(folder, kept), { bigint: true }).catch(() => undefined))?.mtimeNs;
    if (mine === undefined) return;
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (name === kept || !name.startsWith(prefix)) continue;
      const file = join(folder, name);
      const other = await stat(file, { bigint: true }).catch(() => undefined);
      if (other && other.mtimeNs < mine) await rm(file, { force: true });
    }
  }
}

/**
 * Pipes a request body in without ever destroying it (as `pipeline` would on
 * a failure): destroying a request closes its socket, and the caller still
 * has to answer on it (413 for a part over its limit). A body that fails or
 * closes early fails the part.
 */
function feed(body: Readable, into: PartDigest): void {
  body.once('error', (error) => into.destroy(error));
  body.once('close', () => {
    if (!body.readableEnded) into.destroy(new Error('the request body ended early'));
  });
  body.pipe(into);
}

/** Counts and hashes a part as it streams through, failing once it passes its limit. */
class PartDigest extends Transform {
  bytes = 0;
  private readonly hash = createHash('md5');

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return callback(new PartTooLargeError(this.limit));
    this.hash.update(chunk);
    callback(null, chunk);
  }

  md5(): string {
    return this.hash.digest('hex');
  }
}

async function* concatenate(files: string[]): AsyncGenerator<Buffer> {
  for (const file of files) yield* createReadStream(file) as AsyncIterable<Buffer>;
}

function noSuchUpload(uploadId: string): MultipartUploadError {
  return new MultipartUploadError(
    'NoSuchUpload',
    `no multipart upload ${JSON.stringify(uploadId.slice(0, 64))} (completed, aborted or never started)`,
  );
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
