import { errorMessage } from '@genasset/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import type { Prisma } from '../generated/prisma/client';
import { ObjectCleanupRepository } from './object-cleanup.repository';

/** How long an uploaded object may wait for the row that references it before the sweeper deletes it. */
export const PENDING_OBJECT_TTL_MS = 60 * 60 * 1000;

type Tx = Prisma.TransactionClient;

/**
 * Object writes and deletes that never leave an orphan in storage, whatever
 * fails or crashes in between. The rule: an object exists in storage only
 * while a row references it, or while a row of `object_cleanup` will delete it.
 *
 * - Writing: `put` records a pending cleanup (due in an hour) *before* the
 *   bytes go to storage; the transaction that inserts the referencing row calls
 *   `keep`, cancelling it. A failure deletes the object at once (`discard`); a
 *   crash leaves the pending row, and the sweeper deletes the object later.
 * - Deleting: the transaction that drops the reference calls `release`
 *   (cleanup due now); after commit `flush` deletes the objects and the rows.
 *   If storage is down or the process dies first, the sweeper retries.
 */
@Injectable()
export class StoredObjects {
  private readonly logger = new Logger(StoredObjects.name);

  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly cleanup: ObjectCleanupRepository,
  ) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.cleanup.schedule(key, new Date(Date.now() + PENDING_OBJECT_TTL_MS));
    try {
      await this.store.put(key, body, { contentType, contentLength: body.length });
    } catch (error) {
      await this.discard([key]);
      throw error;
    }
  }

  /** In the transaction that makes the objects referenced: cancels their pending cleanup. */
  async keep(tx: Tx, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.cleanup.cancelPending(tx, keys);
  }

  /** In the transaction that drops the last reference: the objects are to be deleted once it commits. */
  async release(tx: Tx, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.cleanup.dueNow(tx, keys);
  }

  /** After the releasing transaction committed: deletes now; on failure the sweeper retries later. */
  async flush(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.store.delete([...keys]);
      await this.cleanup.deleteDue(keys);
    } catch (error) {
      this.logger.warn({ err: error, keys: keys.length }, 'object deletion deferred to the cleanup sweeper');
    }
  }

  /** The write failed before its row committed: delete the objects and their pending cleanup now. */
  async discard(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.store.delete([...keys]);
      await this.cleanup.deleteAll(keys);
    } catch (error) {
      // The pending rows stay: the sweeper deletes the objects when they fall due.
      this.logger.warn({ err: error, keys: keys.length }, 'could not discard objects now; the cleanup sweeper will');
    }
  }

  /**
   * Deletes the objects of due cleanup rows, a batch at a time. Rows are
   * claimed with SKIP LOCKED, so replicas sweep side by side without overlap.
   * Returns how many objects were deleted.
   */
  async sweep(batchSize = 500): Promise<number> {
    return this.cleanup.transaction(async (tx) => {
      const due = await this.cleanup.claimDue(tx, batchSize);
      if (due.length === 0) return 0;
      const ids = due.map((r) => String(r.id));
      try {
        await this.store.delete([...new Set(due.map((r) => r.object_key))]);
      } catch (error) {
        await this.cleanup.retryLater(tx, ids, errorMessage(error).slice(0, 500));
        this.logger.warn({ err: error, objects: due.length }, 'cleanup sweep failed; retrying later');
        return 0;
      }
      await this.cleanup.delete(tx, ids);
      return due.length;
    });
  }
}
