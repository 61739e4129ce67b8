/**
 * The request parameters an output asset keeps in its metadata, as upstream's assets do
 * (`metadata.prompt`, `seed`, `guidance`…): search reads `metadata.prompt` (migration 0003's
 * `search_text`), download archives name entries by it, and a client reruns a generation from it.
 * Only these upstream asset-metadata fields are copied: a job input also holds ids, images and
 * options that are not the asset's to show.
 */
const KEPT = [
  'prompt',
  'negativePrompt',
  'negativePromptStrength',
  'seed',
  'scheduler',
  'guidance',
  'numInferenceSteps',
  'strength',
  'aspectRatio',
  'baseModelId',
] as const;

export function generationParameters(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of KEPT) {
    const value = input[key];
    if (typeof value === 'string' ? value.length === 0 : typeof value !== 'number' && typeof value !== 'boolean') continue;
    // Upstream's asset metadata types `seed` as a string; requests accept a number or digits.
    kept[key] = key === 'seed' ? String(value) : value;
  }
  return kept;
}
