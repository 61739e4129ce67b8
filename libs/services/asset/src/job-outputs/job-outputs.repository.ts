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
  ): Promise<Pick<Asset, 'id' | 'projectId' | 'jobId' | 'outputIndex'>[]> {
    return tx.asset.findMany({
      where: { OR: [{ jobId }, ...(parentIds.length ? [{ id: { in: [...parentIds] }, projectId }] : [])] },
      select: { id: true, projectId: true, jobId: true, outputIndex: true },
    });
  }

  /**
   * Whether the project exists in this deployment's identity (read by every
   * service) and is the team's. Read through the handler's transaction, not
   * IdentityService: embedded mode's single PGlite connection would deadlock
   * on a second one.
   */
  async projectOfTeam(tx: Tx, teamId: string, projectId: string): Promise<boolean> {
    const rows = await tx.$queryRaw<{ team_id: string }[]>`SELECT team_id FROM identity.projects WHERE id = ${projectId}`;
    return rows[0]?.team_id === teamId;
  }
}
