import type { Type } from '@nestjs/common';
import { MODE_TABLE, outputAssetType, type GenerationMode, type JobType } from '@genasset/contracts';
import type { FieldError } from '@genasset/http';

/**
 * What a generate route answers with 200 (spec: Generation; upstream response schemas):
 * - `inference`: job, billing and `inference`, the echo of the request (txt2img-like modes)
 * - `job`: job and billing
 * - `job-asset`: job, the (pending) output asset and billing
 * - the language-model and segmentation modes: job, billing and their own result fields
 */
export type ResponseKind =
  | 'inference'
  | 'job'
  | 'job-asset'
  | 'caption'
  | 'describe-style'
  | 'embed'
  | 'prompt'
  | 'translate'
  | 'segment';

/** The output asset of a `job-asset` mode, announced as pending in the response. */
export interface OutputAsset {
  /** Asset type (spec's asset type list), also its upstream `source`: the mode table's first output type. */
  type: string;
  /** Body field holding the input image (its asset becomes the output's parent). */
  from: string;
  /** Default media type; a body `format` of jpeg/png overrides it. */
  mimeType: string;
}

export interface ModeDefinition {
  /** Path under /v1/generate, `input.generationMode` of the job (the executor dispatches on it): a mode of the mode table. */
  name: Exclude<GenerationMode, 'custom'>;
  summary: string;
  /** The mode table's job type. */
  jobType: JobType;
  body: Type<object>;
  response: ResponseKind;
  /** `inference.type` echoed by inference modes (upstream spelling: txt2img_ip_adapter…). */
  inferenceType?: string;
  /** Spec: deprecated operations. */
  deprecated?: boolean;
  /** Spec: whether the route accepts `originalAssets` (all but those marked "no originalAssets"). */
  originalAssets: boolean;
  /** Groups of fields of which at least one must be given (the first names the error). */
  oneOf?: readonly (readonly string[])[];
  /** Cross-field rules a decorator cannot say. */
  rules?: (body: Record<string, unknown>) => FieldError[];
  output?: OutputAsset;
  /** The body's `modelId` is the model the job runs (recorded as the job's modelId, shown in webhooks). */
  runsModel?: boolean;
  /** The model run when the body names none: the job records it too, since it did run a model. */
  defaultModelId?: string;
  /**
   * The body may name `presetId`, a preset of its registry `modelId` whose parameters fill what
   * the body does not give (docs/models.md: Presets): the route then takes the body as plain JSON
   * and checks it against `body` once the preset is applied (GenerateService.bodyOf).
   */
  presets?: boolean;
}

/**
 * A route's entry in inference.modes.ts / tool.modes.ts: what only the HTTP route knows (its body
 * class, summary, response). Its job type and output asset type come from the mode table.
 */
export type ModeEntry = Omit<ModeDefinition, 'jobType' | 'output'> & { output?: Omit<OutputAsset, 'type'> };

/** The route's definition: its entry completed from the mode table of libs/contracts. */
export function fromModeTable(entry: ModeEntry): ModeDefinition {
  const spec = MODE_TABLE[entry.name];
  const { output, ...rest } = entry;
  return { ...rest, jobType: spec.jobType, ...(output ? { output: { type: outputAssetType(entry.name), ...output } } : {}) };
}

/** The model a job of `mode` runs, as the job (and so `generation.*` webhooks) records it; none for modes without one. */
export function modelRunBy(mode: ModeDefinition, body: Record<string, unknown>): string | undefined {
  if (!mode.runsModel) return undefined;
  return typeof body.modelId === 'string' ? body.modelId : mode.defaultModelId;
}
