import { Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { AssetRepository } from '../core/asset.repository';
import { LIMITS } from '../core/limits';
import type { ProjectScope } from '../core/tenant-scope';
import { AssetFacts } from '../facts/asset-facts';
import type { UpdateTagsBody } from './dto/tags.dto';

/** Adds and deletes tags under the row lock, so concurrent edits never lose one; one `asset.updated` fact. */
@Injectable()
export class TagsService {
  constructor(
    private readonly assets: AssetRepository,
    private readonly facts: AssetFacts,
  ) {}

  async update(scope: ProjectScope, assetId: string, body: UpdateTagsBody): Promise<{ added: string[]; deleted: string[] }> {
    const add = [...new Set(body.add ?? [])];
    const remove = [...new Set(body.delete ?? [])];
    const strict = body.strict ?? true;
    const both = add.filter((t) => remove.includes(t));
    if (both.length) throw ApiError.validation([{ field: 'add', messages: [`tags cannot be both added and deleted: ${both.join(', ')}`] }]);
    if (add.length === 0 && remove.length === 0) throw ApiError.validation([{ field: 'add', messages: ['give tags to add and/or delete'] }]);

    return this.assets.transaction(async (tx) => {
      const row = await this.assets.lockInProject(tx, scope.projectId, assetId);
      if (!row) throw ApiError.notFound(`asset ${assetId} not found`, assetId);
      const present = new Set(row.tags);
      const already = add.filter((t) => present.has(t));
      const absent = remove.filter((t) => !present.has(t));
      if (strict && already.length) {
        throw new ApiError(409, 'tag_exists', `asset ${assetId} already has the tag${already.length > 1 ? 's' : ''} ${already.join(', ')}`, { tags: already });
      }
      if (strict && absent.length) {
        throw new ApiError(409, 'tag_not_found', `asset ${assetId} has no tag${absent.length > 1 ? 's' : ''} ${absent.join(', ')}`, { tags: absent });
      }
      const added = add.filter((t) => !present.has(t));
      const deleted = remove.filter((t) => present.has(t));
      const tags = [...row.tags.filter((t) => !deleted.includes(t)), ...added];
      if (tags.length > LIMITS.tagsPerAsset) {
        throw ApiError.validation([{ field: 'add', messages: [`an asset can carry at most ${LIMITS.tagsPerAsset} tags`] }]);
      }
      if (added.length || deleted.length) {
        const updated = await this.assets.update(tx, assetId, { tags, updatedAt: new Date() });
        await this.facts.updated(tx, [updated]);
      }
      return { added, deleted };
    });
  }
}
