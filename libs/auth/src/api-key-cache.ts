import { createHash } from 'node:crypto';
import type { ApiKeyRecord } from '@genasset/identity';

/**
 * Verified keys are cached briefly (AUTH_CACHE_TTL) so the hot path skips the
 * identity lookup; the cache key is a digest of key+secret, so no secret sits in
 * memory in the clear. A key revoked through this process is evicted at once
 * (AuthModule subscribes to IdentityService); one revoked through another
 * replica stops working here within one TTL.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { record: ApiKeyRecord; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, secret: string, now = Date.now()): ApiKeyRecord | undefined {
    const id = digest(key, secret);
    const hit = this.entries.get(id);
    if (!hit) return undefined;
    if (hit.expiresAt <= now) {
      this.entries.delete(id);
      return undefined;
    }
    return hit.record;
  }

  /** Forgets every cached verification of `keyId` (it was just revoked in this process). */
  evictKey(keyId: string): void {
    for (const [id, entry] of this.entries) {
      if (entry.record.id === keyId) this.entries.delete(id);
    }
  }

  set(key: string, secret: string, record: ApiKeyRecord, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Map keeps insertion order: drop the oldest entry.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(digest(key, secret), { record, expiresAt: now + this.ttlMs });
  }
}

function digest(key: string, secret: string): string {
  return createHash('sha256').update(`${key}\0${secret}`).digest('base64');
}
