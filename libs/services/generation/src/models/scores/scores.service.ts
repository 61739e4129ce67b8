import { Inject, Injectable } from '@nestjs/common';
import { ASSETS_API, type AssetsApi, type TenantRef } from '@genasset/contracts';
import { publicError } from '../../generate/internal-errors';
import { ModelAccess } from '../model-access';
import { PresetRepository } from '../presets/preset.repository';
import { TrainingImageRepository } from '../training-images/training-image.repository';
import { datasetScore, type DatasetImage } from './dataset-score';
import { promptScore } from './prompt-score';

/** The training-dataset and prompt scores of a model, computed on request by the rules of docs/models.md. */
@Injectable()
export class ScoresService {
  constructor(
    private readonly access: ModelAccess,
    private readonly images: TrainingImageRepository,
    private readonly presets: PresetRepository,
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
  ) {}

  async dataset(tenant: TenantRef, modelId: string) {
    const row = await this.access.readable(tenant, modelId);
    const images = await this.images.captions(row.id);
    const owner = { teamId: row.teamId, projectId: row.projectId };
    const ids = images.map((i) => i.assetId);
    // The images are assets of the model's project, whoever reads a public model's score.
    const [objects, embeddings] = ids.length
      ? await Promise.all([this.assets.objects(owner, ids), this.assets.embeddings(owner, ids)]).catch((e: unknown) =>
          Promise.reject(publicError(e)),
        )
      : [[], []];
    const size = new Map(objects.map((o) => [o.assetId, o]));
    const vector = new Map(embeddings.map((e) => [e.assetId, e.embedding]));
    const dataset: DatasetImage[] = images.map((i) => ({
      assetId: i.assetId,
      caption: i.description,
      ...(size.get(i.assetId)?.width ? { width: size.get(i.assetId)!.width, height: size.get(i.assetId)!.height } : {}),
      ...(vector.has(i.assetId) ? { embedding: vector.get(i.assetId) } : {}),
    }));
    return datasetScore(row.id, dataset);
  }

  async prompt(tenant: TenantRef, modelId: string, prompt: string | undefined) {
    const row = await this.access.readable(tenant, modelId);
    const captions = (await this.images.captions(row.id)).map((i) => i.description);
    const presetPrompts = (await this.presets.list(row.id)).map((p) => String((p.parameters as Record<string, unknown>).prompt ?? ''));
    return promptScore(row.id, prompt, captions, presetPrompts);
  }
}
