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
  // As the request gave them: asset-service presents metadata in upstream's types (a numeric seed as
  // its digits, core/asset-metadata.ts), for these fields as for the engine's own.
  return Object.fromEntries(KEPT.flatMap((key) => (input[key] === undefined || input[key] === '' ? [] : [[key, input[key]]])));
}
