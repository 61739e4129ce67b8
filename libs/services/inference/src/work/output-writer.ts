import type { ObjectStore } from '@genasset/storage';
import type { OutputFile, StoredOutput } from '../engines/engine';
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
    const index = this.written.length;
    const extension = EXTENSIONS[file.mimeType] ?? 'bin';
    const key = `${outputPrefix(this.jobId, this.attempt)}${index}.${extension}`;
    try {
      await this.store.put(key, file.bytes, { contentType: file.mimeType, contentLength: file.bytes.length });
    } catch (error) {
      throw new TransientError('object storage could not be written', error);
    }
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
