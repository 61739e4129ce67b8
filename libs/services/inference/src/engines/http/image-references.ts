/** Key prefix of claim-checked request inputs (generation-service stores data-URL inputs there). */
export const STORED_INPUT_PREFIX = 'generation-inputs/';

const ASSET_ID = /^asset_[0-9A-Za-z]{1,64}$/;
/** Asset ids in the input that are not inputs: the reserved output id and the parent of a data-URL image. */
const NOT_INPUTS = new Set(['outputAssetId', 'imageParentId']);

export function isInputReference(value: unknown): value is string {
  return typeof value === 'string' && (ASSET_ID.test(value) || value.startsWith(STORED_INPUT_PREFIX));
}

/** Every input reference (asset id or stored-input key) of a job input, with its dotted path (`styleImages.1`, `patch.image`). */
export function imageReferences(
  input: Record<string, unknown>,
  prefix = '',
): { path: string; value: string }[] {
  const found: { path: string; value: string }[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (!prefix && NOT_INPUTS.has(key)) continue;
    const path = `${prefix}${key}`;
    if (isInputReference(value)) found.push({ path, value });
    else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (isInputReference(item)) found.push({ path: `${path}.${i}`, value: item });
        else if (item && typeof item === 'object' && !Array.isArray(item))
          found.push(...imageReferences(item as Record<string, unknown>, `${path}.${i}.`));
      });
    } else if (value && typeof value === 'object')
      found.push(...imageReferences(value as Record<string, unknown>, `${path}.`));
  }
  return found;
}

/** A deep copy of the input with the references at `images`' paths replaced by their data URLs. */
export function withDataUrls(
  input: Record<string, unknown>,
  images: ReadonlyMap<string, { dataUrl: string }>,
): Record<string, unknown> {
  const copy = structuredClone(input);
  for (const [path, image] of images) {
    const keys = path.split('.');
    let node: Record<string, unknown> | unknown[] = copy;
    for (const key of keys.slice(0, -1))
      node = (node as Record<string, unknown>)[key] as Record<string, unknown>;
    (node as Record<string, unknown>)[keys[keys.length - 1]] = image.dataUrl;
  }
  return copy;
}
