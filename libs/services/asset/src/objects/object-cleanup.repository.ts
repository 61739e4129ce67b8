import { Injectable } from '@nestjs/common';
import { AssetPrisma } from '../asset.prisma';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/** A due cleanup row, claimed by a sweep. */
export interface DueCleanup {
  id: bigint;
  object_key: string;
}

/** The `object_cleanup` queue: objects to delete from storage, and when (see StoredObjects for the rule). */
@Injectable()
export class ObjectCleanupRepository {
  constructor(private readonly prisma: AssetPrisma) {}

  /** Before the bytes go to storage: deleted at `dueAt` unless a referencing row cancels it. */
  async schedule(key: string, dueAt: Date): Promise<void> {
    await this.prisma.objectCleanup.create({ data: { objectKey: key, dueAt } });
  }

  /** In the transaction that makes the objects referenced: their pending (not yet due) cleanup goes. */
  async cancelPending(tx: Tx, keys: readonly string[]): Promise<void> {
    await tx.$executeRaw`DELETE FROM assets.object_cleanup WHERE object_key = ANY(${[...keys]}::text[]) AND due_at > now()`;
  }

  /** In the transaction that drops the last reference: due now. */
  async dueNow(tx: Tx, keys: readonly string[]): Promise<void> {
    await tx.$executeRaw`INSERT INTO assets.object_cleanup (object_key, due_at) SELECT k, now() FROM unnest(${[...keys]}::text[]) AS k`;
  }

  /** The objects were deleted: their due rows go. */
  async deleteDue(keys: readonly string[]): Promise<void> {
    await this.prisma.$executeRaw`DELETE FROM assets.object_cleanup WHERE object_key = ANY(${[...keys]}::text[]) AND due_at <= now()`;
  }

  /** The objects were deleted before their row committed: every row of theirs goes. */
  async deleteAll(keys: readonly string[]): Promise<void> {
    await this.prisma.$executeRaw`DELETE FROM assets.object_cleanup WHERE object_key = ANY(${[...keys]}::text[])`;
  }

  /** A sweep's transaction (long: it deletes objects from storage while holding its rows). */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, { timeout: 60_000 });
  }

  /** Up to `limit` due rows, oldest first, locked; SKIP LOCKED lets replicas sweep side by side. */
  claimDue(tx: Tx, limit: number): Promise<DueCleanup[]> {
    return tx.$queryRaw<DueCleanup[]>`
      SELECT id, object_key FROM assets.object_cleanup
       WHERE due_at <= now() ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  }

  /** Storage refused: the rows are retried later, backing off up to an hour. */
  async retryLater(tx: Tx, ids: readonly string[], message: string): Promise<void> {
    await tx.$executeRaw`
      UPDATE assets.object_cleanup
         SET attempts = attempts + 1, last_error = ${message},
             due_at = now() + least(interval '1 hour', interval '30 seconds' * power(2, attempts))
       WHERE id = ANY(${[...ids]}::bigint[])`;
  }

  async delete(tx: Tx, ids: readonly string[]): Promise<void> {
    await tx.$executeRaw`DELETE FROM assets.object_cleanup WHERE id = ANY(${[...ids]}::bigint[])`;
  }
}
