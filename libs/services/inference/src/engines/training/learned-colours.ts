import type { ObjectStore } from '@genasset/storage';
import { EngineError, type OutputFile } from '../engine';
import { decode, encodePng } from '../image/raster';
import { colourTransfer } from '../image/restyle';
import { TransientError } from '../../work/transient-error';
import type { ColourModel } from './model-files';

/**
 * Reads a model's learned colour statistics (`input.learnedModel.colours`:
 * the key of its `model.json`, set by generation-service when a generation
 * names a model the built-in trainer trained).
 */
export async function readColourModel(store: ObjectStore, key: string): Promise<ColourModel> {
  let object;
  try {
    object = await store.get(key);
  } catch (error) {
    throw new TransientError('the model’s files could not be read from object storage', error);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  const model = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ColourModel;
  if (model.kind !== 'colour-statistics')
    throw new EngineError('the model’s files are not colour statistics');
  return model;
}

/**
 * The image engine's side of a trained colour model: each image output of a
 * generation naming the model is moved towards the learned statistics
 * (Reinhard colour transfer in Lab, the model's `strength` of the way).
 * Non-image outputs pass unchanged.
 */
export async function applyColourModel(file: OutputFile, model: ColourModel): Promise<OutputFile> {
  if (!file.mimeType.startsWith('image/') || file.mimeType === 'image/svg+xml') return file;
  const raster = await decode(file.bytes, 'output');
  const out = await colourTransfer(
    raster,
    { mean: model.lab.mean, std: model.lab.std, pixels: 1 },
    model.strength,
  );
  return {
    ...file,
    bytes: await encodePng(out),
    mimeType: 'image/png',
    metadata: {
      ...file.metadata,
      learnedColours: { palette: model.palette.map((p) => p.hex), strength: model.strength },
    },
  };
}
