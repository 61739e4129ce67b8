import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

/** A ComfyUI graph in API format: `{"<node id>": {class_type, inputs: {name: value | [node id, output]}}}`. */
export type ApiGraph = Record<string, { class_type: string; inputs: Record<string, unknown>; _meta?: unknown }>;

export interface Workflow {
  /** What the metadata and errors call it: `txt2img (built-in)` or the file's name. */
  name: string;
  graph: ApiGraph;
  /** Placeholder names the graph uses (`prompt`, `seed`, `image`…). */
  placeholders: Set<string>;
}

/** Built-in templates (JSON files beside this one, API format), by route. */
export const TEMPLATE_FILES: Readonly<Record<string, string>> = {
  txt2img: 'txt2img.json',
  img2img: 'img2img.json',
  inpaint: 'inpaint.json',
  // Canny on the control image: other modalities need a workflow of their own (workflows: in the backends file).
  controlnet: 'controlnet-canny.json',
  'txt2img-ip-adapter': 'ip-adapter.json',
  upscale: 'upscale.json',
};
export const TEMPLATE_DIR = resolve(__dirname, 'workflows');

const PLACEHOLDER = /\{\{([a-z_]+)\}\}/g;

/** Placeholders filled with an uploaded input image's name: the request field(s) each comes from. */
export const IMAGE_PLACEHOLDERS: Readonly<Record<string, readonly string[]>> = {
  image: ['image', 'imageId'],
  // The image with the mask merged into its alpha by POST /upload/mask (transparent = repaint).
  masked_image: ['image', 'imageId'],
  mask: ['mask', 'maskId'],
  control_image: ['controlImage', 'controlImageId'],
  ip_adapter_image: ['ipAdapterImage', 'ipAdapterImageId', 'ipAdapterImages.0', 'ipAdapterImageIds.0'],
};

/**
 * Placeholders filled from the request: the field, and the value used when the request has none
 * and the operator set no default (`defaults:` in the backends file; a request value always wins).
 */
const REQUEST_PLACEHOLDERS: Readonly<Record<string, { fields: readonly string[]; fallback?: unknown }>> = {
  prompt: { fields: ['prompt'], fallback: '' },
  negative_prompt: { fields: ['negativePrompt'], fallback: '' },
  steps: { fields: ['numInferenceSteps'], fallback: 30 },
  guidance: { fields: ['guidance'], fallback: 7 },
  width: { fields: ['width'], fallback: 512 },
  height: { fields: ['height'], fallback: 512 },
  batch_size: { fields: ['numSamples'], fallback: 1 },
  strength: { fields: ['strength'], fallback: 0.75 },
  control_start: { fields: ['controlStart'], fallback: 0 },
  control_end: { fields: ['controlEnd'], fallback: 1 },
  control_strength: { fields: [], fallback: 1 },
  ip_adapter_weight: { fields: ['ipAdapterScale', 'ipAdapterScales.0'], fallback: 1 },
  ip_adapter_preset: { fields: [], fallback: 'PLUS (high strength)' },
};

/** Filled by the engine: the seed (the request's, else drawn and recorded) and the output file prefix. */
const ENGINE_PLACEHOLDERS = ['seed', 'filename_prefix'];

/** Parses an API-format workflow, refusing the UI format (what "Save" writes, not "Save (API Format)"). */
export function parseWorkflow(text: string, name: string): Workflow {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${name} is not JSON: ${(error as Error).message}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error(`${name} is not a JSON object`);
  const record = data as Record<string, unknown>;
  if (Array.isArray(record.nodes) && 'links' in record)
    throw new Error(`${name} is in ComfyUI's UI format: export it with "Save (API Format)"`);
  const placeholders = new Set<string>();
  for (const [id, node] of Object.entries(record)) {
    const n = node as { class_type?: unknown; inputs?: unknown } | null;
    if (!n || typeof n !== 'object' || typeof n.class_type !== 'string' || !n.inputs || typeof n.inputs !== 'object')
      throw new Error(`${name}: node ${id} is not {"class_type": …, "inputs": {…}}`);
    for (const value of Object.values(n.inputs as Record<string, unknown>))
      if (typeof value === 'string') for (const m of value.matchAll(PLACEHOLDER)) placeholders.add(m[1]);
  }
  if (Object.keys(record).length === 0) throw new Error(`${name} has no nodes`);
  return { name, graph: record as ApiGraph, placeholders };
}

export function readWorkflowFile(path: string): Workflow {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parseWorkflow(text, basename(path));
}

export function readTemplate(route: string): Workflow | undefined {
  const file = TEMPLATE_FILES[route];
  if (!file) return undefined;
  const workflow = readWorkflowFile(resolve(TEMPLATE_DIR, file));
  return { ...workflow, name: `${file} (built-in)` };
}

/** Placeholders of a workflow nothing can fill: neither request, engine, image nor the given defaults. */
export function unfilled(workflow: Workflow, defaults: Record<string, unknown>): string[] {
  return [...workflow.placeholders].filter(
    (p) =>
      !(p in REQUEST_PLACEHOLDERS) &&
      !(p in IMAGE_PLACEHOLDERS) &&
      !ENGINE_PLACEHOLDERS.includes(p) &&
      defaults[p] === undefined,
  );
}

/** Node types a workflow uses, for the check against the backend's /object_info. */
export function nodeTypes(workflow: Workflow): string[] {
  return [...new Set(Object.values(workflow.graph).map((n) => n.class_type))].sort();
}

/** The value at a dotted path (`ipAdapterImages.0`). */
export function fieldValue(input: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), input);
}

/** The seed of a request: its own (a number or a numeric string), else a new one (recorded in the output's metadata). */
export function seedOf(input: Record<string, unknown>): number {
  const given = input.seed;
  const n = typeof given === 'string' && /^\d+$/.test(given) ? Number(given) : given;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : randomInt(0, 2 ** 32);
}

/**
 * Every placeholder's value for one request: request fields, then the model's and the backend's
 * defaults, then the built-in fallbacks; `images` holds the uploaded names of image placeholders.
 */
export function placeholderValues(
  workflow: Workflow,
  input: Record<string, unknown>,
  settings: { defaults: Record<string, unknown>; seed: number; filenamePrefix: string; images: Record<string, string> },
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const p of workflow.placeholders) {
    if (p === 'seed') values[p] = settings.seed;
    else if (p === 'filename_prefix') values[p] = settings.filenamePrefix;
    else if (p in IMAGE_PLACEHOLDERS) values[p] = settings.images[p];
    else {
      const rule = REQUEST_PLACEHOLDERS[p];
      const fromRequest = rule?.fields.map((f) => fieldValue(input, f)).find((v) => v !== undefined && v !== null);
      values[p] = fromRequest ?? settings.defaults[p] ?? rule?.fallback;
    }
  }
  return values;
}

/**
 * The graph with its placeholders filled: an input that is exactly `"{{name}}"` takes the value
 * as it is (a number stays a number), a placeholder inside a longer string is replaced by text.
 * Links and literal values are left alone.
 */
export function bindWorkflow(workflow: Workflow, values: Record<string, unknown>): ApiGraph {
  const bound: ApiGraph = {};
  for (const [id, node] of Object.entries(workflow.graph)) {
    const inputs: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node.inputs)) {
      if (typeof value !== 'string' || !value.includes('{{')) {
        inputs[key] = value;
        continue;
      }
      const whole = /^\{\{([a-z_]+)\}\}$/.exec(value);
      inputs[key] = whole
        ? values[whole[1]]
        : value.replace(PLACEHOLDER, (_, name: string) => String(values[name] ?? ''));
    }
    bound[id] = { class_type: node.class_type, inputs };
  }
  return bound;
}
