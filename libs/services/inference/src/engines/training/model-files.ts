import type { ObjectStore } from '@genasset/storage';
import { TransientError } from '../../work/transient-error';

/** Where a training job's files go: `models/<projectId>/<modelId>/<jobId>/` (generation-service derives the same keys). */
export function modelFilesPrefix(projectId: string, modelId: string, jobId: string): string {
  return `models/${projectId}/${modelId}/${jobId}/`;
}

/** A file a trainer stored, as the training job's success output names it (`output.model.files`). */
export interface ModelFile {
  name: string;
  size: number;
  contentType: string;
}

export async function putModelFile(
  store: ObjectStore,
  prefix: string,
  name: string,
  bytes: Buffer,
  contentType: string,
): Promise<ModelFile> {
  try {
    await store.put(`${prefix}${name}`, bytes, { contentType, contentLength: bytes.length });
  } catch (error) {
    throw new TransientError('object storage could not be written', error);
  }
  return { name, size: bytes.length, contentType };
}

/** The learned colour statistics of the built-in trainer (`model.json`). */
export interface ColourModel {
  kind: 'colour-statistics';
  version: 1;
  /** Pooled CIE L*a*b* mean and standard deviation of the training images. */
  lab: { mean: [number, number, number]; std: [number, number, number] };
  /** Dominant colours (k-means in RGB), with the share of sampled pixels each holds. */
  palette: { rgb: [number, number, number]; hex: string; weight: number }[];
  images: number;
  epochs: number;
  /** How strongly generations naming the model move towards these statistics (0–1). */
  strength: number;
}
