import type { Model, ModelTrainingImage } from '../generated/prisma/client';
import type { ModelInput } from './model-inputs';
import { isLegacyType } from './model-types';

export type ModelRow = Model;

export interface TrainingImageView {
  id: string;
  name: string;
  description: string;
  automaticCaptioning: string;
  downloadUrl: string;
  createdAt: string;
}

/**
 * A model as GET /v1/models/{modelId} shows it (upstream shape; fields this
 * registry has no use for, like epochs or uiConfig, are left out rather than faked).
 * `ownerId` is the project, as for collections.
 */
export function toModelView(
  row: ModelRow,
  trainingImages: TrainingImageView[],
  trainingImagesNumber: number,
): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name ?? undefined,
    shortDescription: row.shortDescription ?? undefined,
    type: row.type,
    status: row.status,
    privacy: row.privacy,
    source: 'other',
    custom: !isLegacyType(row.type),
    ownerId: row.projectId,
    ...(row.authorId ? { authorId: row.authorId } : {}),
    capabilities: row.capabilities,
    inputs: row.inputs as unknown as ModelInput[],
    parameters: row.parameters ?? undefined,
    ...(row.backend ? { backend: row.backend } : {}),
    ...(trainedVersion(row) ? { trainedVersion: trainedVersion(row) } : {}),
    tags: row.tags,
    collectionIds: row.collectionIds,
    exampleAssetIds: row.exampleAssetIds,
    trainingImages,
    trainingImagesNumber,
    ...(Array.isArray(row.trainingPairs) && row.trainingPairs.length ? { trainingImagePairs: row.trainingPairs } : {}),
    ...(row.trainingProgress ? { trainingProgress: row.trainingProgress } : {}),
    ...(row.trainingStats ? { trainingStats: row.trainingStats } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The version a backend's training made (a Replicate `owner/name:<version>`), when the model was trained there. */
export function trainedVersion(row: Pick<ModelRow, 'status' | 'artifacts'>): string | undefined {
  const artifacts = row.artifacts as { version?: unknown } | null;
  return row.status === 'trained' && typeof artifacts?.version === 'string' ? artifacts.version : undefined;
}

/**
 * The model in summary form, as `model.training.*` webhooks carry it in
 * `data.model` (the spec leaves its fields open): who it is and where its
 * training stands.
 */
export function modelSummary(
  row: Pick<ModelRow, 'id' | 'name' | 'type' | 'privacy' | 'status' | 'projectId'>,
) {
  return {
    id: row.id,
    ...(row.name ? { name: row.name } : {}),
    type: row.type,
    privacy: row.privacy,
    status: row.status,
    ownerId: row.projectId,
  };
}

export function trainingImageView(image: ModelTrainingImage, downloadUrl: string): TrainingImageView {
  return {
    id: image.assetId,
    name: image.name,
    description: image.description,
    // No captioning model runs on training images here: empty, as upstream shows before captioning.
    automaticCaptioning: '',
    downloadUrl,
    createdAt: image.createdAt.toISOString(),
  };
}
