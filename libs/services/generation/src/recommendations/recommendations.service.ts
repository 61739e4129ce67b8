import { Inject, Injectable } from '@nestjs/common';
import { JOBS_API, type JobsApi, type TenantRef } from '@genasset/contracts';
import { pageToken } from '@genasset/persistence';
import type { Prisma } from '../generated/prisma/client';
import { MODEL_LIMITS } from '../models/model-types';
import type { ModelRow } from '../models/model.view';
import { ModelsService } from '../models/models.service';
import { splitList, type RecommendationsQuery } from './recommendations.query';
import { RecommendationsRepository } from './recommendations.repository';

/** How many matching models are ranked: the most recently updated ones (docs/models.md, "Recommendations"). */
export const RECOMMENDATION_CANDIDATES = 500;

/**
 * `GET /v1/recommendations/models`. The rule: the models the caller can run —
 * its project's (`privacy=private`, default) or every team's public ones —
 * that are `trained` or of type `custom` (custom models run without training),
 * narrowed by `type`, `excludeTypes`, `tags` (all of them), `capabilities`
 * (each value a capability, or a prefix or suffix of one, the model has) and
 * `excludeModelIds`; ranked by how many jobs of the caller's project ran each
 * (job-service's count, JobsApi.modelJobCounts), then most recently updated.
 */
@Injectable()
export class RecommendationsService {
  constructor(
    private readonly candidates: RecommendationsRepository,
    private readonly models: ModelsService,
    @Inject(JOBS_API) private readonly jobs: JobsApi,
  ) {}

  async recommend(tenant: TenantRef, query: RecommendationsQuery) {
    const limit = query.limit ?? 10;
    const offset = query.nextToken === undefined ? 0 : decodeOffset(query.nextToken);
    const excludeTypes = splitList(query.excludeTypes);
    const excludeIds = splitList(query.excludeModelIds);
    const tags = splitList(query.tags);
    const where: Prisma.ModelWhereInput = {
      ...(query.privacy === 'public' ? { privacy: 'public' } : { projectId: tenant.projectId, teamId: tenant.teamId }),
      OR: [{ status: 'trained' }, { type: 'custom' }],
      AND: [
        ...(query.type ? [{ type: query.type }] : []),
        ...(excludeTypes.length ? [{ type: { notIn: excludeTypes } }] : []),
        ...(excludeIds.length ? [{ id: { notIn: excludeIds } }] : []),
        ...(tags.length ? [{ tags: { hasEvery: tags } }] : []),
      ],
    };
    const candidates = await this.candidates.mostRecentlyUpdated(where, RECOMMENDATION_CANDIDATES);
    const wanted = splitList(query.capabilities);
    const matching = candidates.filter((m) => wanted.every((w) => m.capabilities.some((c) => c.startsWith(w) || c.endsWith(w))));
    const uses = await this.jobs.modelJobCounts(tenant, matching.map((m) => m.id));
    const ranked = rank(matching, uses);
    const page = ranked.slice(offset, offset + limit);
    return {
      models: await this.models.views(page, MODEL_LIMITS.listTrainingImages),
      ...(ranked.length > offset + limit ? { nextToken: encodeOffset(offset + limit) } : {}),
    };
  }
}

/** Most used in the project first; then most recently updated (the candidates' order, kept by a stable sort). */
export function rank(models: ModelRow[], uses: Record<string, number>): ModelRow[] {
  return [...models].sort((a, b) => (uses[b.id] ?? 0) - (uses[a.id] ?? 0));
}

function encodeOffset(offset: number): string {
  return pageToken.encode({ o: offset });
}

function decodeOffset(token: string): number {
  return pageToken.decode(
    token,
    (value) => {
      const { o } = (value ?? {}) as { o?: unknown };
      return typeof o === 'number' && Number.isInteger(o) && o > 0 && o < RECOMMENDATION_CANDIDATES ? o : undefined;
    },
    'nextToken',
  );
}
