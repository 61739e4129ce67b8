import { Injectable } from '@nestjs/common';
import { ModelDeleted, type TenantRef } from '@genasset/contracts';
import { InjectOutbox, Outbox } from '@genasset/messaging';
import { ApiError } from '@genasset/http';
import { GENERATION_SCHEMA } from '../../generation.schema';
import { GenerationPrisma } from '../../generation.prisma';
import type { Prisma } from '../../generated/prisma/client';
import type { ModelRow } from '../model.view';
import { PresetRepository } from '../presets/preset.repository';

export interface ModelClone {
  data: Prisma.ModelUncheckedCreateInput;
  images: { assetId: string; name: string; description: string; createdAt: Date }[];
}

/** Writes a model's copy (row, training images, presets) in one transaction; a transfer removes the source in it too. */
@Injectable()
export class ModelCopyRepository {
  constructor(
    private readonly prisma: GenerationPrisma,
    private readonly presets: PresetRepository,
    @InjectOutbox(GENERATION_SCHEMA.schema) private readonly outbox: Outbox,
  ) {}

  trainingImages(modelId: string) {
    return this.prisma.modelTrainingImage.findMany({ where: { modelId }, orderBy: [{ createdAt: 'asc' }, { assetId: 'asc' }] });
  }

  /**
   * The clone, and with `moveFrom` the source's removal and its `model.deleted`
   * fact (collections drop it), all or nothing. The source must not be training
   * (locked and checked here: a PUT /train meanwhile is seen).
   */
  save(source: ModelRow, clone: ModelClone, moveFrom?: TenantRef): Promise<ModelRow> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM generation.models WHERE id = ${source.id} FOR UPDATE`;
      if (locked.length === 0) throw ApiError.notFound(`model ${source.id} not found`, source.id);
      if (locked[0].status === 'training') throw ApiError.conflict(`model ${source.id} is training: cancel the training first`);
      const row = await tx.model.create({ data: clone.data });
      if (clone.images.length)
        await tx.modelTrainingImage.createMany({ data: clone.images.map((i) => ({ ...i, modelId: row.id })) });
      await this.presets.copyAll(tx, source.id, row.id);
      if (moveFrom) {
        await tx.model.delete({ where: { id: source.id } });
        await this.outbox.write(tx, [
          this.outbox.event(ModelDeleted, { modelId: source.id, teamId: source.teamId, projectId: source.projectId }),
        ]);
      }
      return row;
    });
  }
}
