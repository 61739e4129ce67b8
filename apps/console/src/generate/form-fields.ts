import { resolveSchema, type OpenApiDocument, type ParameterObject, type SchemaObject } from './openapi';

/** How a value is entered: each maps to one labelled control. */
export type Control =
  | 'text'
  | 'textarea'
  | 'number'
  | 'select'
  | 'checkbox'
  | 'optional-boolean'
  | 'list'
  | 'number-list'
  | 'datetime'
  | 'json';

export interface FieldSpec {
  name: string;
  required: boolean;
  control: Control;
  description?: string;
  options?: string[];
  integer?: boolean;
  min?: number;
  max?: number;
  defaultValue?: unknown;
}

export type FormValues = Record<string, string | boolean>;

/** The control for one schema: enums pick, scalars type, lists of scalars are comma-separated, the rest is JSON. */
export function controlFor(
  doc: OpenApiDocument,
  raw: SchemaObject,
  name = '',
): Omit<FieldSpec, 'name' | 'required'> {
  const schema = resolveSchema(doc, raw);
  const base = { description: schema.description, defaultValue: schema.default };
  if (schema.enum?.length)
    return {
      ...base,
      control: 'select',
      options: schema.enum.map(String),
      integer: schema.type === 'integer' || schema.type === 'number',
    };
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return { ...base, control: 'datetime' };
      return {
        ...base,
        control: /prompt/i.test(name) || (schema.maxLength ?? 0) > 1000 ? 'textarea' : 'text',
      };
    case 'integer':
    case 'number':
      return {
        ...base,
        control: 'number',
        integer: schema.type === 'integer',
        min: schema.minimum,
        max: schema.maximum,
      };
    case 'boolean':
      return { ...base, control: 'checkbox' };
    case 'array': {
      const items = resolveSchema(doc, schema.items);
      if (items.type === 'string' && !items.enum) return { ...base, control: 'list' };
      if ((items.type === 'number' || items.type === 'integer') && !items.enum)
        return { ...base, control: 'number-list', integer: items.type === 'integer' };
      return { ...base, control: 'json' };
    }
  }
  // `oneOf` of a digit string and an integer (seeds): typed as text, sent as a number when it is one.
  if (schema.oneOf?.every((s) => ['string', 'integer', 'number'].includes(resolveSchema(doc, s).type ?? '')))
    return { ...base, control: 'text' };
  return { ...base, control: 'json' };
}

/** One field per property of a request body; required ones first, in the schema's order. */
export function bodyFields(doc: OpenApiDocument, body: SchemaObject): FieldSpec[] {
  const required = new Set(body.required ?? []);
  const fields = Object.entries(body.properties ?? {}).map(([name, schema]) => {
    const spec = controlFor(doc, schema, name);
    const isRequired = required.has(name);
    // An optional boolean has three states: left out, true, false.
    const control = spec.control === 'checkbox' && !isRequired ? 'optional-boolean' : spec.control;
    return { ...spec, control, name, required: isRequired } satisfies FieldSpec;
  });
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

/** One field per query or path parameter (filters of list routes, path ids of generate routes). */
export function parameterFields(
  doc: OpenApiDocument,
  parameters: ParameterObject[],
  skip: string[] = [],
): FieldSpec[] {
  return parameters
    .filter((p) => (p.in === 'query' || p.in === 'path') && !skip.includes(p.name))
    .map((p) => {
      const spec = controlFor(doc, p.schema ?? { type: 'string' }, p.name);
      // Query strings carry text: booleans are offered as their enum, JSON is not a filter.
      const control: Control =
        spec.control === 'checkbox' ? 'optional-boolean' : spec.control === 'json' ? 'text' : spec.control;
      return {
        ...spec,
        control,
        description: p.description ?? spec.description,
        name: p.name,
        required: p.required ?? false,
      };
    });
}

/** Initial values: schema defaults where given, else empty (so nothing is sent that the user did not choose). */
export function initialValues(fields: FieldSpec[], preset: Record<string, string> = {}): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (preset[field.name] !== undefined) values[field.name] = preset[field.name];
    else if (field.control === 'checkbox') values[field.name] = field.defaultValue === true;
    else values[field.name] = '';
  }
  return values;
}

export interface BuiltBody {
  body: Record<string, unknown>;
  errors: Record<string, string>;
}

/** Form values → the JSON body: empty optional fields are left out; bad numbers or JSON are named. */
export function buildBody(fields: FieldSpec[], values: FormValues): BuiltBody {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = values[field.name];
    if (field.control === 'checkbox') {
      body[field.name] = raw === true;
      continue;
    }
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (text === '') {
      if (field.required) errors[field.name] = 'required';
      continue;
    }
    try {
      body[field.name] = parseValue(field, text);
    } catch (error) {
      errors[field.name] = error instanceof Error ? error.message : String(error);
    }
  }
  return { body, errors };
}

function parseValue(field: FieldSpec, text: string): unknown {
  switch (field.control) {
    case 'number':
      return toNumber(text, field.integer);
    case 'select':
      return field.integer ? toNumber(text, false) : text;
    case 'optional-boolean':
      return text === 'true';
    case 'list':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'number-list':
      return text.split(',').map((s) => toNumber(s.trim(), field.integer));
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        throw new Error('not valid JSON');
      }
    case 'datetime': {
      const date = new Date(text);
      if (Number.isNaN(date.getTime())) throw new Error('not a date');
      return date.toISOString();
    }
    default:
      // Seeds and other string-or-integer fields: digits go as a number.
      return field.name === 'seed' && /^\d+$/.test(text) ? Number(text) : text;
  }
}

function toNumber(text: string, integer?: boolean): number {
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`"${text}" is not a number`);
  if (integer && !Number.isInteger(value)) throw new Error(`"${text}" is not a whole number`);
  return value;
}
