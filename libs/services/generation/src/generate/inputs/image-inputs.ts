import { imageFieldsOf, isAssetId, type ImageAccepts } from '../dto/image-ref';
import { GENERATE_LIMITS } from '../limits';

/** One image reference found in a request: where it is and what it holds. */
export interface ImageInput {
  /** Dotted path: `image`, `ipAdapterImages.1`, `patch.image`. */
  path: string;
  value: string;
  kind: 'asset' | 'data-url';
  /** Custom-model bodies take any media type; the mode bodies take images only. */
  accepts: ImageAccepts | 'any-data-url';
  /** Custom-model inputs: an asset of any kind (video, audio, 3D) may be one; the mode bodies take image assets only. */
  anyMedia?: boolean;
}

const kindOf = (value: string): ImageInput['kind'] => (isAssetId(value) ? 'asset' : 'data-url');

/**
 * Every image of a validated body, from the fields its class marks with
 * @ImageRef, nested bodies (patch.image) included. Values were validated, so
 * each is an asset id or an image data URL as its field accepts.
 */
export function imageInputsOf(body: object, prefix = ''): ImageInput[] {
  const inputs: ImageInput[] = [];
  const marked = new Set<string>();
  for (const field of imageFieldsOf(body)) {
    marked.add(field.property);
    const value = (body as Record<string, unknown>)[field.property];
    const path = `${prefix}${field.property}`;
    if (typeof value === 'string') inputs.push({ path, value, kind: kindOf(value), accepts: field.accepts });
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (typeof item === 'string')
          inputs.push({ path: `${path}.${i}`, value: item, kind: kindOf(item), accepts: field.accepts });
      });
    }
  }
  for (const [property, value] of Object.entries(body)) {
    if (marked.has(property) || value === null || typeof value !== 'object') continue;
    const items = Array.isArray(value)
      ? value.map((v, i) => [`${property}.${i}`, v] as const)
      : [[property, value] as const];
    for (const [path, item] of items) {
      if (item && typeof item === 'object' && !Array.isArray(item))
        inputs.push(...imageInputsOf(item, `${prefix}${path}.`));
    }
  }
  return inputs;
}

const DATA_URL_START = /^data:[^,]{1,200},/;

/**
 * Images of a custom-model body, whose fields only the model knows (the
 * model-driven validation comes with the models registry): any string that is
 * an asset id or a data URL, at the top level or in a top-level list.
 */
export function customInputsOf(body: Record<string, unknown>): ImageInput[] {
  const inputs: ImageInput[] = [];
  const consider = (path: string, value: unknown) => {
    if (typeof value !== 'string') return;
    if (isAssetId(value))
      inputs.push({ path, value, kind: 'asset', accepts: 'asset-or-data-url', anyMedia: true });
    else if (DATA_URL_START.test(value))
      inputs.push({ path, value, kind: 'data-url', accepts: 'any-data-url', anyMedia: true });
  };
  for (const [property, value] of Object.entries(body)) {
    if (Array.isArray(value))
      value.slice(0, GENERATE_LIMITS.listItems).forEach((item, i) => consider(`${property}.${i}`, item));
    else consider(property, value);
  }
  return inputs;
}

/** Sets `value` at a dotted path of a plain object (the job input), lists included. */
export function setAtPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node: Record<string, unknown> | unknown[] = target;
  for (const key of keys.slice(0, -1))
    node = (node as Record<string, unknown>)[key] as Record<string, unknown>;
  (node as Record<string, unknown>)[keys[keys.length - 1]] = value;
}
