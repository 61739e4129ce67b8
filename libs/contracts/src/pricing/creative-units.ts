/**
 * What a generation costs in creative units (docs/credits.md, "Cost model").
 * generation-service prices a request with `creativeUnitsCost` (dry runs
 * answer with it, real runs pass it to `JobsApi.createJob`); job-service
 * charges whatever the command carries. Pure: the table comes in as an
 * argument, read once at start from CREATIVE_UNITS_COSTS by
 * `creativeUnitsCostTableFromEnv`.
 */

import { MODE_TABLE, MODES, type GenerationMode, type PricingGroup } from '../modes/mode-table';

export type { GenerationMode } from '../modes/mode-table';
export type CreativeUnitsGroup = PricingGroup;

/**
 * The `/v1/generate/{mode}` modes, by the way they are priced (the mode table's `group`):
 * - inference: model inference, priced by output megapixels × samples
 * - image: image operations (classic algorithms), cheap, a little more for large outputs
 * - text: text in or out, a small flat price per item
 */
export const CREATIVE_UNITS_GROUPS: readonly CreativeUnitsGroup[] = ['inference', 'image', 'text'];
const modesPricedAs = (group: CreativeUnitsGroup): readonly GenerationMode[] =>
  MODES.filter((mode) => MODE_TABLE[mode].group === group).sort();
export const GENERATION_MODE_GROUPS: Readonly<Record<CreativeUnitsGroup, readonly GenerationMode[]>> = {
  inference: modesPricedAs('inference'),
  image: modesPricedAs('image'),
  text: modesPricedAs('text'),
};
export const GENERATION_MODES: readonly GenerationMode[] = CREATIVE_UNITS_GROUPS.flatMap((group) => GENERATION_MODE_GROUPS[group]);

const GROUP_OF = new Map<string, CreativeUnitsGroup>(
  CREATIVE_UNITS_GROUPS.flatMap((group) =>
    GENERATION_MODE_GROUPS[group].map((mode) => [mode, group] as const),
  ),
);

/**
 * One price: `perRequest + samples × (perSample + perMegapixel × megapixels)`,
 * rounded up to whole units, at least `minimum`; then `discountPercent` of it
 * is waived (rounded down).
 */
export interface CreativeUnitsRate {
  perRequest: number;
  perSample: number;
  perMegapixel: number;
  minimum: number;
  /** 0–100. */
  discountPercent: number;
}

export const CREATIVE_UNITS_RATE_FIELDS = [
  'perRequest',
  'perSample',
  'perMegapixel',
  'minimum',
  'discountPercent',
] as const satisfies readonly (keyof CreativeUnitsRate)[];

export interface CreativeUnitsCostTable {
  groups: Record<CreativeUnitsGroup, CreativeUnitsRate>;
  /** A mode's own changes over its group's rate. */
  modes: Partial<Record<GenerationMode, Partial<CreativeUnitsRate>>>;
}

/** Output size assumed when a request gives none: 1024 × 1024. */
export const DEFAULT_OUTPUT_PIXELS = 1024 * 1024;

export const DEFAULT_CREATIVE_UNITS_COSTS: CreativeUnitsCostTable = Object.freeze({
  groups: {
    // 1024² → 1 + 4 × 1.05 = 5.2 → 6 per sample; 512² → 3; 4 × 1024² → 21.
    inference: { perRequest: 0, perSample: 1, perMegapixel: 4, minimum: 1, discountPercent: 0 },
    // 1024² → 1.3 → 2; a 4× upscale of 1024² (16.8 MP) → 6.
    image: { perRequest: 0, perSample: 1, perMegapixel: 0.25, minimum: 1, discountPercent: 0 },
    // 1 per caption, prompt, translation or embedding.
    text: { perRequest: 0, perSample: 1, perMegapixel: 0, minimum: 1, discountPercent: 0 },
  },
  modes: {},
});

export interface CreativeUnitsRequest {
  mode: GenerationMode;
  /** Output size in pixels. Absent: 1024 × 1024; only one given: a square. */
  width?: number;
  height?: number;
  /** Outputs asked for (numSamples, numOutputs, numResults, images captioned…). Default 1. */
  numSamples?: number;
}

export interface CreativeUnitsPrice {
  /** What is charged, after the discount. */
  creativeUnitsCost: number;
  /** What was waived. */
  creativeUnitsDiscount: number;
}

/** The rate a mode is priced at under `table`. Throws RangeError for an unknown mode. */
export function creativeUnitsRate(
  mode: GenerationMode,
  table: CreativeUnitsCostTable = DEFAULT_CREATIVE_UNITS_COSTS,
): CreativeUnitsRate {
  const group = GROUP_OF.get(mode);
  if (!group) throw new RangeError(`no creative-units price for generation mode "${mode}"`);
  return { ...table.groups[group], ...table.modes[mode] };
}

/** The price of one generation request. Throws RangeError for an unknown mode or a nonsensical size. */
export function creativeUnitsCost(
  request: CreativeUnitsRequest,
  table: CreativeUnitsCostTable = DEFAULT_CREATIVE_UNITS_COSTS,
): CreativeUnitsPrice {
  const rate = creativeUnitsRate(request.mode, table);
  const samples = request.numSamples ?? 1;
  if (!Number.isInteger(samples) || samples < 1)
    throw new RangeError(`numSamples must be a whole number ≥ 1`);
  for (const side of [request.width, request.height]) {
    if (side !== undefined && !(Number.isFinite(side) && side > 0))
      throw new RangeError('width and height must be positive numbers');
  }
  const width = request.width ?? request.height;
  const height = request.height ?? request.width;
  const megapixels =
    width !== undefined && height !== undefined ? (width * height) / 1e6 : DEFAULT_OUTPUT_PIXELS / 1e6;
  const raw = rate.perRequest + samples * (rate.perSample + rate.perMegapixel * megapixels);
  // Rounded to 1e-6 first so 0.1 + 0.2 never costs one unit more than it should.
  const gross = Math.ceil(Math.round(Math.max(rate.minimum, raw) * 1e6) / 1e6);
  const discount = Math.floor((gross * rate.discountPercent) / 100);
  return { creativeUnitsCost: gross - discount, creativeUnitsDiscount: discount };
}

/**
 * The default table with the overrides of CREATIVE_UNITS_COSTS, a JSON object
 * keyed by group (`inference`, `image`, `text`) or mode, each value a partial
 * rate, e.g. `{"inference":{"perMegapixel":6},"upscale":{"minimum":3}}`.
 * Throws an Error naming the variable and the bad entry.
 */
export function creativeUnitsCostTableFromEnv(
  env: Record<string, string | undefined> = process.env,
): CreativeUnitsCostTable {
  const text = env.CREATIVE_UNITS_COSTS?.trim();
  return text ? parseCreativeUnitsCosts(text) : DEFAULT_CREATIVE_UNITS_COSTS;
}

export function parseCreativeUnitsCosts(
  json: string,
  base: CreativeUnitsCostTable = DEFAULT_CREATIVE_UNITS_COSTS,
): CreativeUnitsCostTable {
  const fail = (message: string): never => {
    throw new Error(`CREATIVE_UNITS_COSTS: ${message}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return fail('is not valid JSON');
  }
  if (!isPlainObject(parsed)) return fail('expected a JSON object keyed by group or mode');
  const table: CreativeUnitsCostTable = {
    groups: { ...base.groups },
    modes: { ...base.modes },
  };
  for (const [key, value] of Object.entries(parsed)) {
    if (!isPlainObject(value)) return fail(`"${key}" must be an object of rate fields`);
    const rate = parseRate(key, value, fail);
    if ((CREATIVE_UNITS_GROUPS as string[]).includes(key)) {
      const group = key as CreativeUnitsGroup;
      table.groups[group] = { ...table.groups[group], ...rate };
    } else if (GROUP_OF.has(key)) {
      const mode = key as GenerationMode;
      table.modes[mode] = { ...table.modes[mode], ...rate };
    } else {
      fail(`unknown group or mode "${key}" (groups: ${CREATIVE_UNITS_GROUPS.join(', ')})`);
    }
  }
  return table;
}

function parseRate(
  key: string,
  value: Record<string, unknown>,
  fail: (message: string) => never,
): Partial<CreativeUnitsRate> {
  const rate: Partial<CreativeUnitsRate> = {};
  for (const [field, amount] of Object.entries(value)) {
    if (!(CREATIVE_UNITS_RATE_FIELDS as readonly string[]).includes(field))
      fail(`"${key}.${field}" is not a rate field (${CREATIVE_UNITS_RATE_FIELDS.join(', ')})`);
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
      fail(`"${key}.${field}" must be a number ≥ 0`);
    if (field === 'discountPercent' && (amount as number) > 100)
      fail(`"${key}.discountPercent" must be ≤ 100`);
    rate[field as keyof CreativeUnitsRate] = amount as number;
  }
  return rate;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
