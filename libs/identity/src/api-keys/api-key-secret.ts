import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ulid } from 'ulid';

/** Public half of a credential: looked up by primary key, safe to log. */
export function newApiKeyId(): string {
  return `key_${ulid()}`;
}

/** 32 random bytes: high entropy, so a fast hash is as safe as a slow one and keeps auth cheap. */
export function newApiSecret(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
