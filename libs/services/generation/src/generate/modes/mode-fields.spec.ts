import { DECORATORS } from '@nestjs/swagger';
import type { Type } from '@nestjs/common';
import { MODE_TABLE, MODES, type FieldRule, type GenerationMode } from '@genasset/contracts';
import { CustomGenerateBody } from '../dto/custom.dto';
import { MODE_REGISTRY } from './mode-registry';

interface SwaggerProperty {
  type?: unknown;
  isArray?: boolean;
  required?: boolean;
  enum?: (string | number)[];
  minimum?: number;
  maximum?: number;
  default?: string | number | boolean;
  oneOf?: unknown[];
  items?: {
    type?: string;
    minimum?: number;
    maximum?: number;
    items?: { minimum?: number; maximum?: number };
  };
}

/** The OpenAPI property of a body field, in the mode table's terms. */
function ruleOf(p: SwaggerProperty): FieldRule {
  const name = typeof p.type === 'function' ? (p.type as { name: string }).name : String(p.type);
  let type: FieldRule['type'];
  let list = p.isArray === true;
  let bounds = { min: p.minimum, max: p.maximum };
  if (p.oneOf) type = 'seed';
  else if (name === 'String' || name === 'string') type = 'string';
  else if (name === 'Boolean') type = 'boolean';
  else if (name === 'Number' || name === 'number') type = 'number';
  else if (name === 'integer') type = 'integer';
  else if (name === 'array') {
    type = 'number[]';
    // A list of tuples (colorPalette): the bounds are the tuple's numbers'.
    if (p.items?.type === 'array') {
      list = true;
      bounds = { min: p.items.items?.minimum, max: p.items.items?.maximum };
    }
  } else type = 'object';
  const rule: Record<string, unknown> = { type };
  if (p.required !== false) rule.required = true;
  if (list) rule.list = true;
  if (p.enum) rule.enum = p.enum;
  if (bounds.min !== undefined) rule.min = bounds.min;
  if (bounds.max !== undefined) rule.max = bounds.max;
  if (p.default !== undefined) rule.default = p.default;
  return rule as unknown as FieldRule;
}

function bodyRules(body: Type<object>): Record<string, FieldRule> {
  const names = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, body.prototype) ??
    []) as string[];
  return Object.fromEntries(
    names
      .map((n) => n.replace(/^:/, ''))
      .map((name) => {
        const property = Reflect.getMetadata(
          DECORATORS.API_MODEL_PROPERTIES,
          body.prototype,
          name,
        ) as SwaggerProperty;
        return [name, ruleOf(property)];
      }),
  );
}

const bodyOf = (mode: GenerationMode): Type<object> =>
  mode === 'custom' ? CustomGenerateBody : MODE_REGISTRY.find((m) => m.name === mode)!.body;

describe('the generate routes and the mode table', () => {
  it('have the same modes: a route for each mode of the table, custom by its own route', () => {
    expect([...MODE_REGISTRY.map((m) => m.name), 'custom'].sort()).toEqual([...MODES].sort());
  });

  // What a route validates (its body's decorators, which also write its OpenAPI schema) is what the table says,
  // but `presetId` of the modes taking presets: the route applies the preset and drops the field, so it is no
  // field of the mode's input (the table), only of its route (docs/generation.md: Presets).
  it.each(MODES)('%s: the body validates the fields and rules of the table', (mode) => {
    const { presetId, ...rules } = bodyRules(bodyOf(mode));
    expect(rules).toEqual(MODE_TABLE[mode].fields);
    const presets = MODE_REGISTRY.find((m) => m.name === mode)?.presets === true;
    expect(presetId).toEqual(presets ? { type: 'string' } : undefined);
  });

  it('take their job type and output asset type from the table', () => {
    for (const route of MODE_REGISTRY) {
      expect(route.jobType).toBe(MODE_TABLE[route.name].jobType);
      if (route.output) expect(route.output.type).toBe(MODE_TABLE[route.name].outputs[0]);
    }
  });
});
