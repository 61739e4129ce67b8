import { Injectable } from '@nestjs/common';
import { prefixedId } from '@genasset/contracts';
import { GenerationPrisma } from '../../generation.prisma';
import type { ModelPreset, Prisma } from '../../generated/prisma/client';

export type PresetRow = ModelPreset;

/** The presets of models (generation.model_presets). */
@Injectable()
export class PresetRepository {
  constructor(private readonly prisma: GenerationPrisma) {}

  list(modelId: string): Promise<PresetRow[]> {
    return this.prisma.modelPreset.findMany({ where: { modelId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  find(modelId: string, presetId: string): Promise<PresetRow | null> {
    return this.prisma.modelPreset.findFirst({ where: { id: presetId, modelId } });
  }

  count(modelId: string): Promise<number> {
    return this.prisma.modelPreset.count({ where: { modelId } });
  }

  /** A new preset; made the default, it takes that place from the model's previous default in the same transaction. */
  create(modelId: string, authorId: string | null, parameters: Record<string, unknown>, isDefault: boolean): Promise<PresetRow> {
    const data = { id: prefixedId('preset'), modelId, authorId, parameters: parameters as Prisma.InputJsonValue, isDefault };
    // One insert needs no transaction (a connection held for nothing); taking the default place does.
    if (!isDefault) return this.prisma.modelPreset.create({ data });
    return this.prisma.$transaction(async (tx) => {
      await this.clearDefault(tx, modelId);
      return tx.modelPreset.create({ data });
    });
  }

  /** Sets or clears the default flag (one default per model: the partial unique index holds it under races). */
  setDefault(row: PresetRow, isDefault: boolean): Promise<PresetRow> {
    const update = { where: { id: row.id }, data: { isDefault, updatedAt: new Date() } };
    if (!isDefault) return this.prisma.modelPreset.update(update);
    return this.prisma.$transaction(async (tx) => {
      await this.clearDefault(tx, row.modelId, row.id);
      return tx.modelPreset.update(update);
    });
  }

  async delete(modelId: string, presetId: string): Promise<boolean> {
    return (await this.prisma.modelPreset.deleteMany({ where: { id: presetId, modelId } })).count > 0;
  }

  /** Copies every preset of `from` to the model `to` (model copy), in the caller's transaction. */
  async copyAll(tx: Prisma.TransactionClient, from: string, to: string): Promise<void> {
    const rows = await tx.modelPreset.findMany({ where: { modelId: from }, orderBy: { createdAt: 'asc' } });
    if (rows.length === 0) return;
    await tx.modelPreset.createMany({
      data: rows.map((r) => ({
        id: prefixedId('preset'),
        modelId: to,
        authorId: r.authorId,
        parameters: r.parameters as Prisma.InputJsonValue,
        isDefault: r.isDefault,
      })),
    });
  }

  private async clearDefault(tx: Prisma.TransactionClient, modelId: string, except?: string): Promise<void> {
    await tx.modelPreset.updateMany({
      where: { modelId, isDefault: true, ...(except ? { id: { not: except } } : {}) },
      data: { isDefault: false, updatedAt: new Date() },
    });
  }
}
