import colorString from 'color-string';
import { ValidateBy, type ValidationOptions } from 'class-validator';

const MAX_SEED = 2_147_483_647;

/** A seed as upstream takes it: an integer in [0, 2^31-1], as a number or (inference modes) a digit string. */
export function IsSeed(options: { allowString: boolean }): PropertyDecorator {
  return ValidateBy({
    name: 'isSeed',
    validator: {
      validate: (value: unknown) => {
        const n =
          typeof value === 'string' && options.allowString && /^\d{1,10}$/.test(value)
            ? Number(value)
            : value;
        return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_SEED;
      },
      defaultMessage: () =>
        `seed must be an integer between 0 and ${MAX_SEED}${options.allowString ? ' (number or digit string)' : ''}`,
    },
  });
}

export const CONTROLNET_MODALITIES = [
  'blur',
  'canny',
  'depth',
  'gray',
  'illusion',
  'lineart',
  'lines',
  'low-quality',
  'normal-map',
  'pose',
  'scribble',
  'seg',
  'sketch',
  'tile',
] as const;
export const CONTROLNET_PRESETS = ['character', 'landscape', 'city', 'interior'] as const;
const MODALITY_NAMES = new Set<string>([...CONTROLNET_MODALITIES, ...CONTROLNET_PRESETS]);

/**
 * ControlNet modality as upstream describes it: one to three `name[:value]`
 * separated by commas (`canny`, `depth:0.5,pose:1.0`, `character:0.5`), each
 * name a modality or preset, each value in ]0, 1]. Which combinations a model
 * family supports is the model's business (checked when the model runs).
 */
export function IsModality(): PropertyDecorator {
  return ValidateBy({
    name: 'isModality',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        const parts = value.split(',');
        if (parts.length < 1 || parts.length > 3) return false;
        return parts.every((part) => {
          const match = /^([a-z-]+)(?::(\d+(?:\.\d+)?))?$/.exec(part.trim());
          if (!match || !MODALITY_NAMES.has(match[1])) return false;
          return match[2] === undefined || (Number(match[2]) > 0 && Number(match[2]) <= 1);
        });
      },
      defaultMessage: () =>
        `modality must be one to three of ${[...MODALITY_NAMES].join(', ')}, comma-separated, each optionally with :value in ]0, 1] (e.g. depth:0.5,pose:1.0)`,
    },
  });
}

/** Width and height of generated images: multiples of 8 (upstream rule). */
export function IsMultipleOf(divisor: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMultipleOf',
      validator: {
        validate: (value: unknown) => typeof value === 'number' && value % divisor === 0,
        defaultMessage: (args) => `${args?.property} must be a multiple of ${divisor}`,
      },
    },
    options,
  );
}

/**
 * A CSS colour as upstream describes it: hex (#rgb, #rgba, #rrggbb, #rrggbbaa), one of the CSS colour
 * names (`red`, `rebeccapurple`), `transparent`, or rgb()/rgba(); names are case-insensitive. Read
 * by color-string, as the image engine reads it, so whatever passes here paints what it says.
 */
export function IsColor(): PropertyDecorator {
  return ValidateBy({
    name: 'isColor',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        value.length <= 100 &&
        colorString.get.rgb(value.trim().toLowerCase()) !== null,
      defaultMessage: (args) =>
        `${args?.property} must be a hex (#FFFFFF), CSS colour name (red, transparent) or rgb()/rgba() colour`,
    },
  });
}

/** A list of tuples of numbers: fixed length, each item within [min, max] (and integer when asked). */
export function IsTupleList(spec: {
  length: number;
  min?: number;
  max?: number;
  integer?: boolean;
  first?: readonly number[];
}): PropertyDecorator {
  const item = (t: unknown) =>
    Array.isArray(t) &&
    t.length === spec.length &&
    t.every(
      (n, i) =>
        typeof n === 'number' &&
        Number.isFinite(n) &&
        (spec.integer !== true || Number.isInteger(n)) &&
        (i === 0 && spec.first
          ? spec.first.includes(n)
          : (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max)),
    );
  return ValidateBy({
    name: 'isTupleList',
    validator: {
      validate: (value: unknown) => Array.isArray(value) && value.every(item),
      defaultMessage: (args) =>
        `${args?.property} must be a list of [${spec.length} ${spec.integer ? 'integers' : 'numbers'}]` +
        (spec.first ? ` whose first item is one of ${spec.first.join(', ')}` : '') +
        (spec.min !== undefined || spec.max !== undefined
          ? ` within [${spec.min ?? '-∞'}, ${spec.max ?? '∞'}]`
          : ''),
    },
  });
}

/** A fixed-length list of finite numbers (a bounding box [x1, y1, x2, y2]). */
export function IsNumberTuple(length: number): PropertyDecorator {
  return ValidateBy({
    name: 'isNumberTuple',
    validator: {
      validate: (value: unknown) =>
        Array.isArray(value) &&
        value.length === length &&
        value.every((n) => typeof n === 'number' && Number.isFinite(n)),
      defaultMessage: (args) => `${args?.property} must be a list of ${length} numbers`,
    },
  });
}
