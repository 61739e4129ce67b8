import { InternalApiError } from '@genasset/contracts';
import type {
  AssetObject,
  AssetsApi,
  AssetCopy,
  AssetEmbedding,
  CreateJobCommand,
  JobsApi,
  JobView,
  ModelsApi,
  TagCount,
  TagPage,
  TenantRef,
} from '@genasset/contracts';
import type { InternalHttpClient } from './internal-http.client';

const tenantQuery = (t: TenantRef) =>
  `teamId=${encodeURIComponent(t.teamId)}&projectId=${encodeURIComponent(t.projectId)}`;

/** JobsApi of a job-service in another process. */
export class HttpJobsApi implements JobsApi {
  constructor(private readonly http: InternalHttpClient) {}

  async createJob(command: CreateJobCommand): Promise<JobView> {
    return (await this.http.request<{ job: JobView }>('POST', 'internal/v1/jobs', command))!.job;
  }

  async getJob(tenant: TenantRef, jobId: string): Promise<JobView | undefined> {
    return (
      await this.http.request<{ job: JobView }>(
        'GET',
        `internal/v1/jobs/${encodeURIComponent(jobId)}?${tenantQuery(tenant)}`,
      )
    )?.job;
  }

  async cancelJob(tenant: TenantRef, jobId: string): Promise<JobView | undefined> {
    try {
      return (
        await this.http.request<{ job: JobView }>(
          'POST',
          `internal/v1/jobs/${encodeURIComponent(jobId)}/cancel`,
          {
            teamId: tenant.teamId,
            projectId: tenant.projectId,
          },
        )
      )?.job;
    } catch (error) {
      // Another tenant's or an unknown job: the same answer as the in-process API.
      if (error instanceof InternalApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  async modelJobCounts(tenant: TenantRef, modelIds: readonly string[]): Promise<Record<string, number>> {
    return (await this.http.request<{ counts: Record<string, number> }>('POST', 'internal/v1/jobs/model-counts', {
      tenant,
      modelIds,
    }))!.counts;
  }
}

/** AssetsApi of an asset-service in another process. */
export class HttpAssetsApi implements AssetsApi {
  constructor(private readonly http: InternalHttpClient) {}

  async existing(tenant: TenantRef, assetIds: readonly string[]): Promise<string[]> {
    return (await this.http.request<{ assetIds: string[] }>('POST', 'internal/v1/assets/existing', {
      tenant,
      assetIds,
    }))!.assetIds;
  }

  async uploadImage(tenant: TenantRef, image: { data: string; name?: string }): Promise<{ assetId: string }> {
    return (await this.http.request<{ assetId: string }>('POST', 'internal/v1/assets/upload-image', {
      tenant,
      ...image,
    }))!;
  }

  async objects(tenant: TenantRef, assetIds: readonly string[]): Promise<AssetObject[]> {
    return (await this.http.request<{ objects: AssetObject[] }>('POST', 'internal/v1/assets/objects', {
      tenant,
      assetIds,
    }))!.objects;
  }

  async views(tenant: TenantRef, assetIds: readonly string[]): Promise<Record<string, unknown>[]> {
    return (await this.http.request<{ assets: Record<string, unknown>[] }>('POST', 'internal/v1/assets/views', {
      tenant,
      assetIds,
    }))!.assets;
  }

  async embeddings(tenant: TenantRef, assetIds: readonly string[]): Promise<AssetEmbedding[]> {
    return (await this.http.request<{ embeddings: AssetEmbedding[] }>('POST', 'internal/v1/assets/embeddings', {
      tenant,
      assetIds,
    }))!.embeddings;
  }

  async copy(tenant: TenantRef, assetIds: readonly string[], targetProjectId: string): Promise<AssetCopy[]> {
    return (await this.http.request<{ copies: AssetCopy[] }>('POST', 'internal/v1/assets/copy', {
      tenant,
      assetIds,
      targetProjectId,
    }))!.copies;
  }
}

/** ModelsApi of a generation-service (the model registry) in another process. */
export class HttpModelsApi implements ModelsApi {
  constructor(private readonly http: InternalHttpClient) {}

  async existing(tenant: TenantRef, modelIds: readonly string[]): Promise<string[]> {
    return (await this.http.request<{ modelIds: string[] }>('POST', 'internal/v1/models/existing', {
      tenant,
      modelIds,
    }))!.modelIds;
  }

  async tagCounts(tenant: TenantRef, page: TagPage): Promise<TagCount[]> {
    return (await this.http.request<{ tags: TagCount[] }>('POST', 'internal/v1/models/tag-counts', {
      tenant,
      ...page,
    }))!.tags;
  }
}
