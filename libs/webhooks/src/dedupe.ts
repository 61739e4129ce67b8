/**
 * A shared, persistent "first one wins" store (Redis `SET key 1 NX PX ttl`, an SQL
 * `INSERT … ON CONFLICT DO NOTHING`, …) for receivers running more than one process.
 */
export interface WebhookDedupeStore {
  /** Marks `id` for `ttlMs`; resolves `true` when this caller claimed it first, `false` for a duplicate. */
  claim(id: string, ttlMs: number): Promise<boolean>;
  /** Un-marks `id` so a retry is processed again (call it when handling failed). */
  release?(id: string): Promise<void>;
}

export interface Deduper extends WebhookDedupeStore {
  /** Marks `id` and tells whether it was already marked (and not expired). */
  seen(id: string): boolean;
  /** Forgets `id`: after a failed handling, so the service's retry is not dropped as a duplicate. */
  forget(id: string): void;
  /** Entries held, expired ones not yet swept included. */
  readonly size: number;
}

export interface DeduperOptions {
  /** How long an id is remembered. Default 24 h: far beyond the ~3 minutes over which retries arrive. */
  ttlMs?: number;
  /** Upper bound on remembered ids; the oldest are evicted first. Default 100 000. */
  maxEntries?: number;
  /** Clock in Unix milliseconds, for tests. Default `Date.now`. */
  clock?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * In-memory, bounded deduplication by event `id` for a single receiver process. It also
 * implements `WebhookDedupeStore`, so code written against a persistent store can use it.
 */
export function createDeduper(options: DeduperOptions = {}): Deduper {
  const { ttlMs = DAY_MS, maxEntries = 100_000, clock = Date.now } = options;
  if (!(ttlMs > 0)) throw new RangeError(`ttlMs must be > 0, got ${ttlMs}`);
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  // id → expiry time. A Map iterates in insertion order, so its first keys are the oldest marks.
  const expiries = new Map<string, number>();

  const sweep = (at: number) => {
    // Entries share one TTL (unless claim() passes another), so expired ones sit at the front.
    for (const [id, expiresAt] of expiries) {
      if (expiresAt > at && expiries.size <= maxEntries) break;
      expiries.delete(id);
    }
  };

  const mark = (id: string, ttl: number): boolean => {
    const at = clock();
    const expiresAt = expiries.get(id);
    if (expiresAt !== undefined && expiresAt > at) return true;
    // Re-insert so the id moves to the back of the eviction order.
    expiries.delete(id);
    expiries.set(id, at + ttl);
    sweep(at);
    return false;
  };

  return {
    seen: (id) => mark(id, ttlMs),
    claim: async (id, ttl) => !mark(id, ttl),
    forget: (id) => void expiries.delete(id),
    release: async (id) => void expiries.delete(id),
    get size() {
      return expiries.size;
    },
  };
}
