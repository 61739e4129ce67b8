import { Injectable } from '@nestjs/common';
import { AssetPrisma } from '../asset.prisma';

/** The canvas lock columns of an asset row (`lock_id`, `lock_expires_at`, `lock_author_id`). */
@Injectable()
export class CanvasLockRepository {
  constructor(private readonly prisma: AssetPrisma) {}

  /** One conditional UPDATE, so two lockers cannot both win: true when the canvas was free (or its lock expired by `now`) and is now `lockId`'s. */
  async take(
    projectId: string,
    assetId: string,
    lock: { lockId: string; expiresAt: Date; authorId: string },
    now: Date,
  ): Promise<boolean> {
    const { count } = await this.prisma.asset.updateMany({
      where: { id: assetId, projectId, type: 'canvas', OR: [{ lockExpiresAt: null }, { lockExpiresAt: { lte: now } }] },
      data: { lockId: lock.lockId, lockExpiresAt: lock.expiresAt, lockAuthorId: lock.authorId },
    });
    return count === 1;
  }

  /** Releases the lock if it is `lockId` (any lock when `lockId` is undefined): false when another one is held. */
  async release(projectId: string, assetId: string, lockId?: string): Promise<boolean> {
    const { count } = await this.prisma.asset.updateMany({
      where: { id: assetId, projectId, ...(lockId !== undefined ? { lockId } : {}) },
      data: { lockId: null, lockExpiresAt: null, lockAuthorId: null },
    });
    return count > 0;
  }
}
