import type { ObjectInfo } from '@genasset/storage';

interface Entry {
  bytes: Buffer;
  contentType: string;
  version: string;
}

/**
 * The inputs this worker read recently, by object key, so that jobs reusing
 * one input (variations of one image, a batch over one asset) do not fetch
 * its bytes again: a hit costs a HEAD instead of a GET of the whole object.
 * An entry is used only while the object's version (ETag, size, last
 * modified, as a HEAD reports them now) is the one it was read at, so a
 * replaced object is never served stale. Bounded in bytes, least recently
 * used out first; a JS Map keeps insertion order, which is all an LRU of
 * this size needs (no dependency for it).
 */
export class InputCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    /** Larger objects are never kept (one input must not evict all the others). */
    private readonly maxEntryBytes = Math.floor(maxBytes / 4),
  ) {}

  /** The cached bytes of `key` when `current` (a fresh HEAD) shows the same version. */
  get(key: string, current: ObjectInfo): { bytes: Buffer; contentType: string } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== versionOf(current)) {
      this.drop(key, entry);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { bytes: entry.bytes, contentType: entry.contentType };
  }

  /**
   * The cached bytes of a key whose content never changes (an asset's objects are written once,
   * under fresh keys: asset-service's object-keys), without asking storage for its version.
   */
  getWrittenOnce(key: string): { bytes: Buffer; contentType: string } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { bytes: entry.bytes, contentType: entry.contentType };
  }

  /** Whether an object of this key was read before (only then is a HEAD worth asking first). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, info: ObjectInfo, bytes: Buffer): void {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    if (bytes.length > this.maxEntryBytes || this.maxBytes <= 0) return;
    this.entries.set(key, { bytes, contentType: info.contentType, version: versionOf(info) });
    this.bytes += bytes.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest, entry);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes.length;
  }
}

/** What identifies one content of a key: the ETag where the store has one, plus size and modification time. */
function versionOf(info: ObjectInfo): string {
  return `${info.etag ?? ''}|${info.contentLength}|${info.lastModified?.getTime() ?? ''}`;
}
