import { Injectable } from '@nestjs/common';
import { GenerationPrisma } from '../generation.prisma';
import type { Prisma } from '../generated/prisma/client';
import type { ModelRow } from '../models/model.view';

/** The candidates of a recommendation: models matching the rule, most recently updated first. */
@Injectable()
export class RecommendationsRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  mostRecentlyUpdated(where: Prisma.ModelWhereInput, take: number): Promise<ModelRow[]> {
    return this.prisma.model.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take });
  }
}
