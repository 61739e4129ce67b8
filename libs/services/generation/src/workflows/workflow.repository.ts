import { Injectable } from '@nestjs/common';
import { prefixedId, type TenantRef } from '@genasset/contracts';
import { GenerationPrisma } from '../generation.prisma';
import type { Prisma, Workflow } from '../generated/prisma/client';

export type WorkflowRow = Workflow;
export type WorkflowData = Pick<Prisma.WorkflowUncheckedCreateInput, 'name' | 'description' | 'shortDescription' | 'privacy' | 'tagSet' | 'inputs' | 'flow'>;

/** The workflows of projects (generation.workflows). */
@Injectable()
export class WorkflowRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  create(tenant: TenantRef & { authorId?: string }, data: WorkflowData): Promise<WorkflowRow> {
    return this.prisma.workflow.create({
      data: { ...data, id: prefixedId('workflow'), projectId: tenant.projectId, teamId: tenant.teamId, authorId: tenant.authorId ?? null },
    });
  }

  /** The project's workflow: another project's is as absent as a missing one. */
  find(projectId: string, id: string): Promise<WorkflowRow | null> {
    return this.prisma.workflow.findFirst({ where: { id, projectId } });
  }

  /** A page, newest first, after the (createdAt, id) position of the previous page. */
  page(where: Prisma.WorkflowWhereInput, after: { createdAt: Date; id: string } | undefined, take: number): Promise<WorkflowRow[]> {
    const position: Prisma.WorkflowWhereInput = after
      ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
      : {};
    return this.prisma.workflow.findMany({
      where: { AND: [where, position] },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take,
    });
  }

  async update(projectId: string, id: string, data: Partial<WorkflowData>): Promise<WorkflowRow | null> {
    const { count } = await this.prisma.workflow.updateMany({ where: { id, projectId }, data: { ...data, updatedAt: new Date() } });
    return count > 0 ? this.find(projectId, id) : null;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.prisma.workflow.deleteMany({ where: { id, projectId } })).count > 0;
  }
}
