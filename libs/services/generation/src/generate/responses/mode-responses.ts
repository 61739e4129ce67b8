import type { CreativeUnitsPrice, JobView } from '@genasset/contracts';
import { isAssetId } from '../dto/image-ref';
import type { ModeDefinition, ResponseKind } from '../modes/mode-definition';

/** Fields of the job input that are for the executor, not the upstream echo. */
const NOT_ECHOED = new Set([
  'generationMode',
  'outputAssetId',
  'learnedModel',
  'modelId',
  'imageHide',
  'imageParentId',
]);
/** Image fields upstream echoes in pairs: the image, and the id of its asset. */
const IMAGE_PAIRS = [
  ['image', 'imageId'],
  ['mask', 'maskId'],
  ['controlImage', 'controlImageId'],
] as const;

const given = (echo: Record<string, unknown>, field: string, id: string) =>
  typeof echo[field] === 'string' ? echo[field] : typeof echo[id] === 'string' ? echo[id] : undefined;

/**
 * The `inference` echo of the txt2img-like modes (upstream Post<Mode>InferencesResponse):
 * what was asked, as the job holds it (images as asset ids or stored-input keys),
 * with the upstream inference `type` (txt2img_ip_adapter…).
 *
 * Upstream requires both fields of each image pair the mode takes (`image` and
 * `imageId`, `mask` and `maskId`, `controlImage` and `controlImageId`), however
 * the image was sent: the image field carries the reference the job holds, the
 * id field the asset id, or "" when the image came as a data URL (stored for
 * the job, not made an asset). Plain ControlNet modes take the control image in
 * `image` or `controlImage` (one field group): upstream echoes it as `image`.
 */
export function inferenceEcho(mode: ModeDefinition, input: Record<string, unknown>): Record<string, unknown> {
  const echo: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (!NOT_ECHOED.has(key)) echo[key] = value;
  const groups = mode.oneOf ?? [];
  const controlIsImage = groups.some((g) => g.includes('image') && g.includes('controlImage'));
  for (const [field, id] of IMAGE_PAIRS) {
    if (!groups.some((g) => g.includes(field))) continue;
    const ref =
      given(echo, field, id) ??
      (field === 'image' && controlIsImage ? given(echo, 'controlImage', 'controlImageId') : undefined);
    if (ref === undefined) continue;
    echo[field] = ref;
    echo[id] = isAssetId(echo[id]) ? echo[id] : isAssetId(ref) ? ref : '';
  }
  return { ...echo, type: mode.inferenceType };
}

type ResultFields = (
  output: Record<string, unknown>,
  input: Record<string, unknown>,
) => Record<string, unknown>;

const list = (v: unknown) => (Array.isArray(v) ? v : []);
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Result fields of the modes with their own bodies, read from the job's output
 * (the executor reports them under these names). Until the job has them they
 * are empty: the job (GET /v1/jobs/{jobId}) carries them once it succeeds.
 */
const RESULTS: Partial<Record<ResponseKind, ResultFields>> = {
  caption: (out, input) => ({
    captions: list(out.captions),
    ...(input.detailsLevel ? { detailsLevel: input.detailsLevel } : {}),
  }),
  'describe-style': (out) => ({ description: text(out.description), synthesis: text(out.synthesis) }),
  embed: (out) => ({ embedding: list(out.embedding) }),
  prompt: (out, input) => ({ prompts: list(out.prompts), mode: input.mode }),
  translate: (out) => ({ translation: text(out.translation), detectedLanguage: text(out.detectedLanguage) }),
  segment: (out) => (Array.isArray(out.segments) ? { segments: out.segments } : {}),
};

/** Modes whose upstream response carries a result the request waits for (within GENERATION_RESULT_WAIT). */
export const RESULT_KINDS: ReadonlySet<ResponseKind> = new Set([
  'caption',
  'describe-style',
  'embed',
  'prompt',
  'translate',
]);

export function modeResponse(
  mode: ModeDefinition,
  job: JobView,
  price: CreativeUnitsPrice,
  input: Record<string, unknown>,
  asset?: Record<string, unknown>,
): Record<string, unknown> {
  const base = {
    job,
    creativeUnitsCost: price.creativeUnitsCost,
    creativeUnitsDiscount: price.creativeUnitsDiscount,
  };
  switch (mode.response) {
    case 'inference':
      return { ...base, inference: inferenceEcho(mode, input) };
    case 'job-asset':
      return { ...base, asset };
    case 'job':
      return base;
    default:
      return { ...base, ...RESULTS[mode.response]!(job.metadata.output ?? {}, input) };
  }
}
