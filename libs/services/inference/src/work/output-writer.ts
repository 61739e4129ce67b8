import { Readable } from 'node:stream';
import { SNIFF_BYTES, type ObjectStore } from '@genasset/storage';
import { EngineAborted, EngineError, type OutputFile, type OutputStream, type StoredOutput } from '../engines/engine';
import { TransientError } from './transient-error';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
  'image/svg+xml': 'svg',
};

/** Prefix of every object a job's run writes: `jobs/<jobId>/<attempt>/`. Keys differ per attempt, so a taken-over run never overwrites another's. */
export function outputPrefix(jobId: string, attempt: number): string {
  return `jobs/${jobId}/${attempt}/`;
}

/**
 * Stores one run's outputs under `jobs/<jobId>/<attempt>/<index>.<ext>` and
 * remembers them, so a run that fails or is canceled removes what it wrote.
 * Once the job's outputs are reported, the objects belong to the assets
 * asset-service makes of them.
 */
export class OutputWriter {
  private readonly written: StoredOutput[] = [];

  constructor(
    private readonly store: ObjectStore,
    private readonly jobId: string,
    private readonly attempt: number,
    private readonly stamp: Record<string, unknown>,
  ) {}

  get outputs(): readonly StoredOutput[] {
    return this.written;
  }

  async write(file: OutputFile): Promise<StoredOutput> {
    const key = this.keyOf(file.mimeType);
    try {
      await this.store.put(key, file.bytes, { contentType: file.mimeType, contentLength: file.bytes.length });
    } catch (error) {
      throw new TransientError('object storage could not be written', error);
    }
    return this.remember(key, file);
  }

  /**
   * Streams one output into storage without holding it whole: its type is read from its first
   * bytes (`output.type`, which refuses what the mode cannot take), the rest passes through, and
   * whatever the chunks throw (a size limit, the backend hanging up) stops the upload and removes
   * the object.
   */
  async writeStream(output: OutputStream): Promise<StoredOutput> {
    const iterator = output.chunks[Symbol.asyncIterator]();
    const head: Buffer[] = [];
    let headBytes = 0;
    let ended = false;
    while (headBytes < SNIFF_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.length;
    }
    const first = Buffer.concat(head);
    const mimeType = output.type(first);
    const key = this.keyOf(mimeType);
    async function* rest(): AsyncGenerator<Buffer> {
      yield first;
      if (ended) return;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    }
    let failure: unknown;
    const body = Readable.from(
      (async function* () {
        try {
          yield* rest();
        } catch (error) {
          failure = error;
          throw error;
        }
      })(),
    );
    try {
      await this.store.upload(key, body, { contentType: mimeType });
    } catch (error) {
      await this.store.delete([key]).catch(() => undefined);
      const cause = failure ?? error;
      if (cause instanceof EngineError || cause instanceof EngineAborted || cause instanceof TransientError) throw cause;
      throw new TransientError('object storage could not be written', cause);
    }
    return this.remember(key, { ...output.file, mimeType });
  }

  private keyOf(mimeType: string): string {
    return `${outputPrefix(this.jobId, this.attempt)}${this.written.length}.${EXTENSIONS[mimeType] ?? 'bin'}`;
  }

  private remember(key: string, file: Omit<OutputFile, 'bytes'>): StoredOutput {
    const index = this.written.length;
    const stored: StoredOutput = {
      index,
      key,
      mimeType: file.mimeType,
      assetType: file.assetType,
      ...(file.parentAssetId ? { parentAssetId: file.parentAssetId } : {}),
      ...(file.name ? { name: file.name } : {}),
      metadata: { ...file.metadata, ...this.stamp },
    };
    this.written.push(stored);
    return stored;
  }

  /** Best effort: deletes what this run wrote (a failed, canceled or abandoned run). */
  async discard(): Promise<void> {
    if (this.written.length === 0) return;
    await this.store.delete(this.written.map((o) => o.key)).catch(() => undefined);
  }
}
