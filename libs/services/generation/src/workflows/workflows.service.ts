import { Injectable } from '@nestjs/common';
import type { TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import type { Prisma } from '../generated/prisma/client';
import { ModelAccess } from '../models/model-access';
import { decodeToken, encodeToken } from '../models/model-page-token';
import { checkWorkflowGraph, CUSTOM_MODEL_STEP, outputsOf, stepMode, WORKFLOW_NODE } from './workflow-graph';
import { WorkflowRepository, type WorkflowData, type WorkflowRow } from './workflow.repository';
import {
  WORKFLOW_LIMITS,
  type CreateWorkflowBody,
  type ListWorkflowsQuery,
  type UpdateWorkflowBody,
  type WorkflowInput,
  type WorkflowStep,
  type WorkflowView,
} from './workflow.dto';

type Tenant = TenantRef & { authorId?: string };

/**
 * Workflows (docs/workflows.md): a project's stored graphs of generation
 * steps. Every write checks the whole graph (checkWorkflowGraph) and the
 * custom models its steps name, so a stored workflow is one that can run.
 */
@Injectable()
export class WorkflowsService {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly models: ModelAccess,
  ) {}

  async list(tenant: Tenant, query: ListWorkflowsQuery): Promise<{ workflows: WorkflowView[]; nextPaginationToken?: string }> {
    const take = query.pageSize ?? WORKFLOW_LIMITS.pageSize.default;
    const after = query.paginationToken ? decodeToken(query.paginationToken) : undefined;
    const where: Prisma.WorkflowWhereInput = query.privacy === 'public' ? { privacy: 'public' } : { projectId: tenant.projectId };
    const rows = await this.workflows.page(where, after, take + 1);
    const page = rows.slice(0, take);
    return {
      workflows: page.map(workflowView),
      ...(rows.length > take ? { nextPaginationToken: encodeToken(page[page.length - 1]) } : {}),
    };
  }

  async get(tenant: Tenant, id: string): Promise<{ workflow: WorkflowView }> {
    return { workflow: workflowView(await this.found(tenant, id)) };
  }

  async create(tenant: Tenant, body: CreateWorkflowBody): Promise<{ workflow: WorkflowView }> {
    const inputs = body.inputs ?? [];
    const flow = body.flow ?? [];
    await this.checkGraph(tenant, inputs, flow);
    const row = await this.workflows.create(tenant, {
      ...fields(body),
      name: body.name,
      description: body.description,
      inputs: json(inputs),
      flow: json(flow),
    });
    return { workflow: workflowView(row) };
  }

  /** What the body gives replaces what was; the graph is checked whole (the stored part with the given part). */
  async update(tenant: Tenant, id: string, body: UpdateWorkflowBody): Promise<{ workflow: WorkflowView }> {
    const current = await this.found(tenant, id);
    const inputs = body.inputs ?? (current.inputs as unknown as WorkflowInput[]);
    const flow = body.flow ?? (current.flow as unknown as WorkflowStep[]);
    if (body.inputs !== undefined || body.flow !== undefined) await this.checkGraph(tenant, inputs, flow);
    const row = await this.workflows.update(tenant.projectId, id, {
      ...fields(body),
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.inputs !== undefined ? { inputs: json(inputs) } : {}),
      ...(body.flow !== undefined ? { flow: json(flow) } : {}),
    });
    if (!row) throw ApiError.notFound(`workflow ${id} not found`, id);
    return { workflow: workflowView(row) };
  }

  async delete(tenant: Tenant, id: string): Promise<Record<string, never>> {
    if (!(await this.workflows.delete(tenant.projectId, id))) throw ApiError.notFound(`workflow ${id} not found`, id);
    return {};
  }

  private async found(tenant: Tenant, id: string): Promise<WorkflowRow> {
    const row = await this.workflows.find(tenant.projectId, id);
    if (!row) throw ApiError.notFound(`workflow ${id} not found`, id);
    return row;
  }

  /** The graph's rules, then the models of custom-model steps: ones the caller may use (400 naming the step). */
  private async checkGraph(tenant: Tenant, inputs: WorkflowInput[], flow: WorkflowStep[]): Promise<void> {
    checkWorkflowGraph(inputs, flow);
    const custom = flow.map((step, i) => [step, i] as const).filter(([step]) => step.type === CUSTOM_MODEL_STEP);
    if (custom.length === 0) return;
    const usable = await this.models.readableIds(tenant, custom.map(([step]) => step.modelId!));
    const missing = custom.filter(([step]) => !usable.has(step.modelId!));
    if (missing.length > 0)
      throw ApiError.validation(missing.map(([step, i]) => ({ field: `flow[${i}].modelId`, messages: [`model ${step.modelId} not found`] })));
  }
}

const json = (value: unknown) => value as Prisma.InputJsonValue;

function fields(body: CreateWorkflowBody | UpdateWorkflowBody): Partial<WorkflowData> {
  return {
    ...(body.privacy !== undefined ? { privacy: body.privacy } : {}),
    ...(body.shortDescription !== undefined ? { shortDescription: body.shortDescription } : {}),
    ...(body.tagSet !== undefined ? { tagSet: body.tagSet } : {}),
  };
}

export function workflowView(row: WorkflowRow): WorkflowView {
  const flow = row.flow as unknown as WorkflowStep[];
  const bound = new Set(flow.flatMap((s) => s.inputs.map((i) => i.ref?.node)).filter((n) => n && n !== WORKFLOW_NODE));
  // What the run leaves: the assets of the steps no other step takes (each makes an image).
  const last = flow.filter((s) => !bound.has(s.id));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    shortDescription: row.shortDescription,
    privacy: row.privacy,
    status: flow.length === 0 ? 'draft' : 'ready',
    ownerId: row.projectId,
    authorId: row.authorId ?? '',
    tagSet: row.tagSet,
    inputs: row.inputs as unknown as WorkflowInput[],
    flow: flow.map((step) => ({ ...step, outputs: [...outputsOf(step)], status: 'pending' })),
    outputAssetKinds: last.some((s) => s.type === CUSTOM_MODEL_STEP || stepMode(s.type)) ? ['image'] : [],
    after: { assetId: '', url: '' },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
