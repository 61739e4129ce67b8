import { Inject, Injectable } from '@nestjs/common';
import { MODELS_API, type ModelsApi, type TagCount } from '@genasset/contracts';
import { pageToken } from '@genasset/persistence';
import type { ProjectScope } from '../core/tenant-scope';
import { TagsRepository } from './tags.repository';

export const DEFAULT_TAG_PAGE = 50;

/**
 * `GET /v1/tags`: every tag in use in a project with the number of items
 * carrying it. Tags live on assets (this service's schema) and on models
 * (generation-service's registry), so the route fans out: its own query and
 * ModelsApi.tagCounts, each the first `pageSize + 1` tags after the cursor in
 * byte order, merged by name with their counts summed. The merged first
 * `pageSize + 1` are exact (a tag among them is within the first `pageSize + 1`
 * of each side carrying it), so pages are keyset pages on the tag name.
 * Chosen over a tag read model fed by model facts: nothing to keep in step,
 * and a project's tags are few (docs/assets.md, "Tags in use").
 */
@Injectable()
export class TagListService {
  constructor(
    private readonly tags: TagsRepository,
    @Inject(MODELS_API) private readonly models: ModelsApi,
  ) {}

  async list(scope: ProjectScope, pageSize = DEFAULT_TAG_PAGE, token?: string) {
    const after = token === undefined ? undefined : decodeTagToken(token);
    const limit = pageSize + 1;
    const tenant = { teamId: scope.teamId, projectId: scope.projectId };
    const [assetTags, modelTags] = await Promise.all([
      this.tags.counts(scope, after, limit),
      this.models.tagCounts(tenant, { after, limit }),
    ]);
    const merged = mergeTagCounts(assetTags, modelTags);
    const page = merged.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      tags: page.map((t) => ({ ...t, ownerId: scope.projectId })),
      ...(merged.length > pageSize && last ? { nextPaginationToken: encodeTagToken(last.tagName) } : {}),
    };
  }

}

/** Byte order of the UTF-8 names: the order of PostgreSQL's "C" collation both sides sort by. */
const byName = (a: TagCount, b: TagCount) => Buffer.compare(Buffer.from(a.tagName), Buffer.from(b.tagName));

export function mergeTagCounts(...sides: TagCount[][]): TagCount[] {
  const byTag = new Map<string, TagCount>();
  for (const tag of sides.flat()) {
    const seen = byTag.get(tag.tagName);
    byTag.set(
      tag.tagName,
      seen
        ? {
            tagName: tag.tagName,
            itemCount: seen.itemCount + tag.itemCount,
            createdAt: seen.createdAt < tag.createdAt ? seen.createdAt : tag.createdAt,
            updatedAt: seen.updatedAt > tag.updatedAt ? seen.updatedAt : tag.updatedAt,
          }
        : tag,
    );
  }
  return [...byTag.values()].sort(byName);
}

function encodeTagToken(tagName: string): string {
  return pageToken.encode({ a: tagName });
}

function decodeTagToken(token: string): string {
  return pageToken.decode(token, (value) => {
    const { a } = (value ?? {}) as { a?: unknown };
    return typeof a === 'string' && a.length > 0 && !a.includes('\u0000') ? a : undefined;
  });
}
