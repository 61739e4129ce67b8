import { Injectable } from '@nestjs/common';
import { GenerationPrisma } from '../../generation.prisma';
import type { Prisma } from '../../generated/prisma/client';
import type { ModelRow } from '../model.view';

/** Model rows for lists that are not one project's (public models, bulk reads). */
@Injectable()
export class ModelListingRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  page(where: Prisma.ModelWhereInput, orderBy: Prisma.ModelOrderByWithRelationInput[], take: number): Promise<ModelRow[]> {
    return this.prisma.model.findMany({ where, orderBy, take });
  }

  byIds(ids: readonly string[]): Promise<ModelRow[]> {
    return this.prisma.model.findMany({ where: { id: { in: [...ids] } } });
  }
}
