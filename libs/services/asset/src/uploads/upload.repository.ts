import { Injectable } from '@nestjs/common';
import { LeaseTable, type DatabaseConnection } from '@genasset/persistence';
import { AssetPrisma } from '../asset.prisma';
import type { Prisma, Upload } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/** NOTIFY channel of uploads to import (sent with the transaction that completes them). */
export const UPLOADS_CHANNEL = 'assets_uploads';

export type NewUpload = Omit<
  Upload,
  'status' | 'errorMessage' | 'attempts' | 'claimedBy' | 'leaseUntil' | 'createdAt' | 'updatedAt'
>;

/**
 * The import queue's leased work (libs/persistence LeaseTable): claimed under the worker's id. The
 * status stays `validating` while claimed; a given-back row keeps a back-off in `lease_until`.
 */
const IMPORTS = new LeaseTable({
  table: 'assets.uploads',
  key: 'id',
  holder: { column: 'claimed_by', token: 'given' },
  held: `status = 'validating'`,
  pick: {
    claimable: `status = 'validating' AND (lease_until IS NULL OR lease_until < now())`,
    order: 'lease_until NULLS FIRST, updated_at',
  },
  onClaim: 'attempts = attempts + 1',
});

/**
 * The `uploads` table: records of multipart uploads, and the import queue
 * (status `validating`) that workers claim with FOR UPDATE SKIP LOCKED under
 * a lease. Every read takes the project: no query reaches another tenant's upload.
 */
@Injectable()
export class UploadRepository {
  constructor(private readonly prisma: AssetPrisma) {}

  /** An import's asset (with its fact) and the upload's end commit together. */
  transaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /**
   * Records the upload and, in the same transaction, the deletion of its
   * object should it never be imported (due after the upload expires).
   */
  async create(upload: NewUpload, deleteObjectAt: Date): Promise<Upload> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.upload.create({ data: upload });
      await tx.objectCleanup.create({ data: { objectKey: upload.objectKey, dueAt: deleteObjectAt } });
      return row;
    });
  }

  find(projectId: string, id: string): Promise<Upload | null> {
    return this.prisma.upload.findFirst({ where: { id, projectId } });
  }

  /**
   * Parts assembled: queue the import (pending → validating) and move the
   * object's safety-net deletion to `deleteObjectAt`. False when the upload
   * was no longer pending (a concurrent complete or cancel won).
   */
  async markCompleted(id: string, deleteObjectAt: Date): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const n = await tx.$executeRaw`
        UPDATE assets.uploads SET status = 'validating', updated_at = now() WHERE id = ${id} AND status = 'pending'`;
      if (n !== 1) return false;
      const [{ object_key: key }] = await tx.$queryRaw<
        { object_key: string }[]
      >`SELECT object_key FROM assets.uploads WHERE id = ${id}`;
      await tx.$executeRaw`UPDATE assets.object_cleanup SET due_at = ${deleteObjectAt} WHERE object_key = ${key} AND due_at > now()`;
      await tx.$executeRaw`SELECT pg_notify(${UPLOADS_CHANNEL}, ${id})`;
      return true;
    });
  }

  /** pending → failed (cancel, expiry, a size mismatch found at completion). False when it was not pending. */
  async failPending(id: string, reason: string): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE assets.uploads SET status = 'failed', error_message = ${reason}, updated_at = now() WHERE id = ${id} AND status = 'pending'`;
    return n === 1;
  }

  /** Claims up to `limit` of the oldest uploads waiting to be imported (or whose importer died). */
  async claim(workerId: string, leaseMs: number, limit = 1): Promise<Upload[]> {
    const { sql, params } = IMPORTS.claim(limit, leaseMs, 'id', workerId);
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(sql, ...params);
    if (rows.length === 0) return [];
    return this.prisma.upload.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
  }

  /** In the transaction that created the asset. */
  async imported(tx: Tx, id: string, workerId: string): Promise<boolean> {
    const { sql, params } = IMPORTS.end(id, workerId, { set: `status = 'imported', updated_at = now()` });
    return (await tx.$executeRawUnsafe(sql, ...params)) === 1;
  }

  async importFailed(id: string, workerId: string, reason: string): Promise<boolean> {
    const { sql, params } = IMPORTS.end(id, workerId, {
      set: `status = 'failed', error_message = $3, updated_at = now()`,
      params: [reason],
    });
    return (await this.prisma.$executeRawUnsafe(sql, ...params)) === 1;
  }

  /** Gives the claim back, due again after `delayMs`. */
  async release(id: string, workerId: string, delayMs: number): Promise<void> {
    const { sql, params } = IMPORTS.end(id, workerId, {
      lease: `now() + $3::float8 * interval '1 millisecond'`,
      params: [delayMs],
    });
    await this.prisma.$executeRawUnsafe(sql, ...params);
  }

  /** Pending uploads past their expiry (to abort), a batch at a time. */
  expired(limit = 100): Promise<Upload[]> {
    return this.prisma.upload.findMany({
      where: { status: 'pending', expiresAt: { lt: new Date() } },
      take: limit,
      orderBy: { expiresAt: 'asc' },
    });
  }

  async purge(olderThanMs: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM assets.uploads
       WHERE status IN ('imported', 'failed') AND updated_at < now() - ${olderThanMs}::float8 * interval '1 millisecond'`;
  }
}

/**
 * Ends the lease of every claimed import now (see reclaimAssetLeases: only where no other worker
 * lives). An unclaimed row's lease_until is a back-off (release), not a lease: left alone.
 */
export function reclaimUploadLeases(db: Pick<DatabaseConnection, 'query'>): Promise<number> {
  return IMPORTS.reclaim(db);
}
