import { Injectable } from '@nestjs/common';
import { CollectionPrisma } from '../collection.prisma';
import type { Collection, Prisma } from '../generated/prisma/client';
import type { PageCursor } from './pagination-token';

/** Collection rows, always addressed through their project: another project's row is never seen. */
@Injectable()
export class CollectionsRepository {
  constructor(private readonly prisma: CollectionPrisma) {}

  create(row: {
    id: string;
    teamId: string;
    projectId: string;
    name: string;
    createdAt: Date;
  }): Promise<Collection> {
    return this.prisma.collection.create({ data: { ...row, updatedAt: row.createdAt } });
  }

  find(
    projectId: string,
    id: string,
    tx: Prisma.TransactionClient = this.prisma,
  ): Promise<Collection | null> {
    return tx.collection.findFirst({ where: { id, projectId } });
  }

  /**
   * Locks the collection row for the rest of the transaction; false when it is
   * not the project's (or gone). Every membership change takes this lock
   * first, so changes to one collection queue up instead of locking membership
   * rows in different orders and deadlocking.
   */
  async lock(tx: Prisma.TransactionClient, projectId: string, id: string): Promise<boolean> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM collections.collections WHERE id = ${id} AND project_id = ${projectId} FOR UPDATE`;
    return rows.length === 1;
  }

  /** Newest first; `take` rows after `after` (exclusive). */
  page(projectId: string, take: number, after?: PageCursor): Promise<Collection[]> {
    return this.prisma.collection.findMany({
      where: {
        projectId,
        ...(after
          ? {
              OR: [
                { createdAt: { lt: after.createdAt } },
                { createdAt: after.createdAt, id: { lt: after.id } },
              ],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take,
    });
  }

  /** One statement; undefined when the collection is not the project's. */
  async update(
    projectId: string,
    id: string,
    data: { name?: string; thumbnailAssetId?: string | null; updatedAt: Date },
    tx: Prisma.TransactionClient = this.prisma,
  ): Promise<Collection | undefined> {
    const [row] = await tx.collection.updateManyAndReturn({ where: { id, projectId }, data });
    return row;
  }

  /** Membership rows go with it (ON DELETE CASCADE). */
  async delete(projectId: string, id: string, tx: Prisma.TransactionClient = this.prisma): Promise<boolean> {
    return (await tx.collection.deleteMany({ where: { id, projectId } })).count === 1;
  }

  transaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }
}
