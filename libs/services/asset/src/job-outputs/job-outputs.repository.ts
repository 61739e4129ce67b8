import { Injectable } from '@nestjs/common';
import type { Asset, Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/** The reads behind a job's outputs, always on the consumer's transaction (`ctx.tx`). */
@Injectable()
export class JobOutputsRepository {
  /** One read for both: the assets an earlier delivery of the job made, and those of `parentIds` in the project. */
  madeOrParents(
    tx: Tx,
    jobId: string,
    projectId: string,
    parentIds: readonly string[],
  ): Promise<Pick<Asset, 'id' | 'projectId' | 'jobId' | 'outputIndex' | 'rootParentId'>[]> {
    return tx.asset.findMany({
      where: { OR: [{ jobId }, ...(parentIds.length ? [{ id: { in: [...parentIds] }, projectId }] : [])] },
      select: { id: true, projectId: true, jobId: true, outputIndex: true, rootParentId: true },
    });
  }
}
