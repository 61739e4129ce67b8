import { Injectable } from '@nestjs/common';
import type { TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { MODEL_ID } from './model-types';
import type { ModelRow } from './model.view';
import { ModelsRepository } from './models.repository';

/**
 * Who may see and change a model. Private models belong to their project: any
 * other caller gets the same 404 as for a missing id. Public (and unlisted)
 * models are readable by every team, but only their project changes them (403).
 */
@Injectable()
export class ModelAccess {
  constructor(private readonly models: ModelsRepository) {}

  /** The model if the tenant may read it; 404 otherwise. */
  async readable(tenant: TenantRef, modelId: string): Promise<ModelRow> {
    const row = MODEL_ID.test(modelId) ? await this.models.find(modelId) : null;
    if (!row || !canRead(tenant, row)) throw ApiError.notFound(`model ${modelId} not found`, modelId);
    return row;
  }

  /** The model if it is the tenant's project's; 403 for another project's public model, 404 otherwise. */
  async owned(tenant: TenantRef, modelId: string): Promise<ModelRow> {
    const row = await this.readable(tenant, modelId);
    if (row.projectId !== tenant.projectId)
      throw ApiError.forbidden(`model ${modelId} belongs to another project: it can be read, not changed`);
    return row;
  }

  /** Of `ids`, those the tenant may read (for references in generation requests). */
  async readableIds(tenant: TenantRef, ids: readonly string[]): Promise<Set<string>> {
    const valid = [...new Set(ids.filter((id) => MODEL_ID.test(id)))];
    if (valid.length === 0) return new Set();
    const rows = await this.models.visibility(valid);
    return new Set(rows.filter((r) => canRead(tenant, r)).map((r) => r.id));
  }
}

export function canRead(tenant: TenantRef, row: Pick<ModelRow, 'projectId' | 'privacy'>): boolean {
  return row.projectId === tenant.projectId || row.privacy !== 'private';
}
