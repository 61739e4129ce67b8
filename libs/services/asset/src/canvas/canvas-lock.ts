import { ApiError } from '@genasset/http';
import type { AssetRow } from '../core/asset.repository';
import { LIMITS } from '../core/limits';

/** The lock currently held on a row, if any (an expired lock is no lock). */
export function activeLock(row: Pick<AssetRow, 'lockId' | 'lockExpiresAt'>, now: Date): { lockId: string; expiresAt: Date } | undefined {
  return row.lockId && row.lockExpiresAt && row.lockExpiresAt > now ? { lockId: row.lockId, expiresAt: row.lockExpiresAt } : undefined;
}

export function lockedConflict(assetId: string, expiresAt: Date): ApiError {
  return new ApiError(409, 'canvas_locked', `asset ${assetId} is locked by another client until ${expiresAt.toISOString()}`, {
    assetId,
    lockExpiresAt: expiresAt.toISOString(),
  });
}

/**
 * Who may write a canvas: anyone while it is unlocked; only the holder's
 * `lockId` while it is locked. A `lockId` that is no longer held (expired,
 * released or forced) is refused too, so a client that lost its lock cannot
 * overwrite what was written since.
 */
export function assertMayWrite(row: Pick<AssetRow, 'id' | 'lockId' | 'lockExpiresAt'>, lockId: string | undefined, now: Date): void {
  const lock = activeLock(row, now);
  if (lockId === undefined) {
    if (lock) throw lockedConflict(row.id, lock.expiresAt);
    return;
  }
  if (!lock) {
    throw new ApiError(409, 'lock_expired', `lock ${lockId} is not held on asset ${row.id}: it expired or was released; lock the canvas again`, {
      assetId: row.id,
    });
  }
  if (lock.lockId !== lockId) throw lockedConflict(row.id, lock.expiresAt);
}

/** A requested expiry: in the future, at most `lockMaxSeconds` ahead; default `lockDefaultSeconds`. */
export function lockExpiry(value: string | undefined, now: Date): Date {
  if (value === undefined) return new Date(now.getTime() + LIMITS.lockDefaultSeconds * 1000);
  const at = new Date(value);
  if (at <= now) throw ApiError.validation([{ field: 'lockExpiresAt', messages: ['lockExpiresAt must be in the future'] }]);
  const max = new Date(now.getTime() + LIMITS.lockMaxSeconds * 1000);
  if (at > max) {
    throw ApiError.validation([
      { field: 'lockExpiresAt', messages: [`lockExpiresAt can be at most ${LIMITS.lockMaxSeconds / 60} minutes ahead (not after ${max.toISOString()})`] },
    ]);
  }
  return at;
}

export function notACanvas(assetId: string): ApiError {
  return new ApiError(400, 'not_a_canvas', `asset ${assetId} is not a canvas`, { assetId });
}
