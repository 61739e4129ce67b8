import { Injectable } from '@nestjs/common';
import { GenerationPrisma } from '../../generation.prisma';
import type { ModelRow } from '../model.view';

/** The page of a model: its markdown description and example assets (generation.models columns). */
@Injectable()
export class ModelPageRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  setDescription(modelId: string, description: string): Promise<ModelRow> {
    return this.prisma.model.update({ where: { id: modelId }, data: { description, updatedAt: new Date() } });
  }

  setExamples(modelId: string, assetIds: string[]): Promise<ModelRow> {
    return this.prisma.model.update({ where: { id: modelId }, data: { exampleAssetIds: assetIds, updatedAt: new Date() } });
  }

  /** Summaries of the models among `ids` (for `{model:…}` tags). */
  summaries(ids: readonly string[]) {
    return this.prisma.model.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, name: true, shortDescription: true, privacy: true, type: true, authorId: true, projectId: true },
    });
  }
}
