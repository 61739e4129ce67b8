import type { FieldError } from '@genasset/http';
import { ASSET_ID, MODEL_ID, MODEL_LIMITS } from './model-types';

/** One input of a model (upstream `model.inputs[]`), the schema `POST /generate/custom/{modelId}` is checked against. */
export interface ModelInput {
  name: string;
  type: InputType;
  label?: string;
  description?: string;
  required?: {
    always?: boolean;
    /** Required when the named input is not given (value: the message). */
    ifNotDefined?: Record<string, string>;
    /** Required when the named input is given (value: the message). */
    ifDefined?: Record<string, string>;
    /** Required when the named input has one of the listed values. */
    conditionalValues?: Record<string, unknown[]>;
  };
  min?: number;
  max?: number;
  step?: number;
  minLength?: number;
  maxLength?: number;
  allowedValues?: unknown[];
  kind?: string;
  default?: unknown;
}

export const INPUT_TYPES = [
  'boolean',
  'file',
  'file_array',
  'model',
  'model_array',
  'number',
  'number_array',
  'string',
  'string_array',
] as const;
export type InputType = (typeof INPUT_TYPES)[number];

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const RULE_KEYS = new Set(['always', 'ifNotDefined', 'ifDefined', 'conditionalValues']);
const KEYS = new Set([
  'name',
  'type',
  'label',
  'description',
  'required',
  'min',
  'max',
  'step',
  'minLength',
  'maxLength',
  'allowedValues',
  'kind',
  'default',
  'hint',
  'group',
  'prompt',
  'parent',
  'costImpact',
]);

/**
 * Checks the `inputs` a client declares for a model (POST/PUT /v1/models): well-formed
 * definitions only, so every later custom generation can be validated against them.
 * Hand-written rather than class-validator: the definitions are a small recursive union
 * whose error paths (`inputs[2].required.ifDefined`) matter more than decorators give.
 */
export function checkInputDefinitions(value: unknown): { inputs: ModelInput[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ field, messages: [message] });
  if (!Array.isArray(value)) {
    bad('inputs', 'inputs must be an array of input definitions');
    return { inputs: [], errors };
  }
  if (value.length > MODEL_LIMITS.inputs) bad('inputs', `at most ${MODEL_LIMITS.inputs} inputs are accepted`);
  const names = new Set<string>();
  value.forEach((raw, i) => {
    const at = `inputs[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return bad(at, `${at} must be an object`);
    const input = raw as Record<string, unknown>;
    const unknown = Object.keys(input).find((k) => !KEYS.has(k));
    if (unknown) bad(`${at}.${unknown}`, `${unknown} is not a field of an input definition`);
    if (typeof input.name !== 'string' || !NAME.test(input.name))
      bad(`${at}.name`, 'name must start with a letter and hold letters, digits and _ (at most 64)');
    else if (names.has(input.name)) bad(`${at}.name`, `input ${input.name} is defined twice`);
    else names.add(input.name);
    if (!(INPUT_TYPES as readonly string[]).includes(input.type as string))
      bad(`${at}.type`, `type must be one of ${INPUT_TYPES.join(', ')}`);
    for (const key of ['min', 'max', 'step', 'minLength', 'maxLength'])
      if (input[key] !== undefined && (typeof input[key] !== 'number' || !Number.isFinite(input[key])))
        bad(`${at}.${key}`, `${key} must be a number`);
    if (typeof input.step === 'number' && input.step <= 0) bad(`${at}.step`, 'step must be greater than 0');
    if (
      input.allowedValues !== undefined &&
      (!Array.isArray(input.allowedValues) || input.allowedValues.length === 0)
    )
      bad(`${at}.allowedValues`, 'allowedValues must be a non-empty array');
    if (input.required !== undefined) {
      const rules = input.required as Record<string, unknown>;
      if (!rules || typeof rules !== 'object' || Array.isArray(rules))
        bad(`${at}.required`, 'required must be an object');
      else {
        for (const key of Object.keys(rules)) {
          if (!RULE_KEYS.has(key)) bad(`${at}.required.${key}`, `${key} is not a required rule`);
          else if (key === 'always' ? typeof rules[key] !== 'boolean' : !isRecord(rules[key]))
            bad(
              `${at}.required.${key}`,
              `${key} must be ${key === 'always' ? 'a boolean' : 'an object keyed by input name'}`,
            );
        }
        if (isRecord(rules.conditionalValues))
          for (const [other, values] of Object.entries(rules.conditionalValues))
            if (!Array.isArray(values))
              bad(`${at}.required.conditionalValues.${other}`, 'must be an array of values');
      }
    }
  });
  // Rules may only name inputs of the same model.
  value.forEach((raw, i) => {
    const rules = (raw as ModelInput | undefined)?.required;
    if (!rules || typeof rules !== 'object') return;
    for (const key of ['ifDefined', 'ifNotDefined', 'conditionalValues'] as const) {
      const named = rules[key];
      if (!isRecord(named)) continue;
      for (const other of Object.keys(named))
        if (!names.has(other)) bad(`inputs[${i}].required.${key}`, `${other} is not an input of this model`);
    }
  });
  return { inputs: errors.length ? [] : (value as ModelInput[]), errors };
}

/** What a custom generation refers to, to be checked against the project after the shape checks. */
export interface InputReferences {
  assets: { field: string; id: string }[];
  models: { field: string; id: string }[];
}

/**
 * Checks a custom-generation body against the model's inputs: unknown fields,
 * required rules (always, ifDefined, ifNotDefined, conditionalValues), types,
 * ranges, steps, lengths and allowed values. Every error names the input.
 * Returns the asset and model ids the body refers to, for the existence check.
 */
export function checkInputValues(
  inputs: readonly ModelInput[],
  body: Record<string, unknown>,
): { errors: FieldError[]; references: InputReferences } {
  const errors: FieldError[] = [];
  const references: InputReferences = { assets: [], models: [] };
  const bad = (field: string, message: string) => errors.push({ field, messages: [message] });
  // Own fields only: an input named like an Object.prototype member (toString) is not "given" by inheritance.
  const defined = (name: string) =>
    Object.hasOwn(body, name) && body[name] !== undefined && body[name] !== null;
  const byName = new Map(inputs.map((i) => [i.name, i]));
  for (const name of Object.keys(body))
    if (!byName.has(name))
      bad(
        name,
        `${name} is not an input of this model (its inputs: ${[...byName.keys()].join(', ') || 'none'})`,
      );
  for (const input of inputs) {
    const { name } = input;
    if (!defined(name)) {
      const why = requiredBecause(input, body, defined);
      if (why) bad(name, why);
      continue;
    }
    checkValue(input, body[name], bad, references);
  }
  return { errors, references };
}

function requiredBecause(
  input: ModelInput,
  body: Record<string, unknown>,
  defined: (name: string) => boolean,
): string | undefined {
  const rules = input.required;
  if (!rules) return undefined;
  if (rules.always) return `${input.name} is required`;
  for (const [other, message] of Object.entries(rules.ifDefined ?? {}))
    if (defined(other)) return message || `${input.name} is required when ${other} is given`;
  for (const [other, message] of Object.entries(rules.ifNotDefined ?? {}))
    if (!defined(other)) return message || `${input.name} is required when ${other} is not given`;
  for (const [other, values] of Object.entries(rules.conditionalValues ?? {}))
    if (defined(other) && values.some((v) => v === body[other]))
      return `${input.name} is required when ${other} is ${JSON.stringify(body[other])}`;
  return undefined;
}

function checkValue(
  input: ModelInput,
  value: unknown,
  bad: (field: string, message: string) => void,
  refs: InputReferences,
): void {
  const { name } = input;
  const allowed = input.allowedValues;
  const scalar = (field: string, v: unknown, type: 'number' | 'string' | 'file' | 'model'): boolean => {
    if (type === 'number') {
      if (typeof v !== 'number' || !Number.isFinite(v)) return fail(field, `${field} must be a number`);
      if (input.min !== undefined && v < input.min)
        return fail(field, `${field} must be at least ${input.min}`);
      if (input.max !== undefined && v > input.max)
        return fail(field, `${field} must be at most ${input.max}`);
      if (input.step !== undefined) {
        const steps = (v - (input.min ?? 0)) / input.step;
        if (Math.abs(steps - Math.round(steps)) > 1e-9)
          return fail(
            field,
            `${field} must be a multiple of ${input.step}${input.min ? ` from ${input.min}` : ''}`,
          );
      }
    } else if (type === 'string') {
      if (typeof v !== 'string') return fail(field, `${field} must be a string`);
      if (input.minLength !== undefined && v.length < input.minLength)
        return fail(field, `${field} must be at least ${input.minLength} characters`);
      if (input.maxLength !== undefined && v.length > input.maxLength)
        return fail(field, `${field} must be at most ${input.maxLength} characters`);
    } else if (type === 'file') {
      if (typeof v !== 'string' || !ASSET_ID.test(v))
        return fail(field, `${field} must be an asset id (asset_…)`);
      refs.assets.push({ field, id: v });
    } else {
      if (typeof v !== 'string' || !MODEL_ID.test(v))
        return fail(field, `${field} must be a model id (model_…)`);
      refs.models.push({ field, id: v });
    }
    if (allowed && (type === 'number' || type === 'string') && !allowed.includes(v))
      return fail(field, `${field} must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    return true;
  };
  const fail = (field: string, message: string) => {
    bad(field, message);
    return false;
  };
  switch (input.type) {
    case 'boolean':
      if (typeof value !== 'boolean') bad(name, `${name} must be true or false`);
      return;
    case 'number':
    case 'string':
    case 'file':
    case 'model':
      scalar(name, value, input.type);
      return;
    default: {
      if (!Array.isArray(value)) return void bad(name, `${name} must be an array`);
      const itemType = input.type.replace('_array', '') as 'number' | 'string' | 'file' | 'model';
      // On arrays of files/models/strings min/max bound the count (upstream: "inputs as array").
      if (itemType !== 'number') {
        if (input.min !== undefined && value.length < input.min)
          return void bad(name, `${name} must hold at least ${input.min} item(s)`);
        if (input.max !== undefined && value.length > input.max)
          return void bad(name, `${name} must hold at most ${input.max} item(s)`);
      }
      value.forEach((item, i) => scalar(`${name}[${i}]`, item, itemType));
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
