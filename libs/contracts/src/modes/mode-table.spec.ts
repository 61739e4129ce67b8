import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GENERATION_MODES, GENERATION_MODE_GROUPS } from '../pricing/creative-units';
import { JOB_TYPES } from '../events/job-lifecycle.events';
import {
  builtInEngineOf,
  MODE_ROUTES,
  modeOfJobType,
  modeOfRoute,
  outputAssetType,
  type ModeRoute,
} from './mode-routes';
import { MODE_TABLE, MODES, type GenerationMode } from './mode-table';

const ROOT = resolve(__dirname, '../../../..');

interface UpstreamProperty {
  type?: string;
  enum?: unknown[];
  description?: string;
}
interface UpstreamSchema {
  properties?: Record<string, UpstreamProperty>;
  required?: string[];
  $ref?: string;
}
const upstream = JSON.parse(
  readFileSync(resolve(ROOT, 'libs/testing/src/upstream/upstream-api.swagger.json'), 'utf8'),
) as {
  paths: Record<string, { post?: { parameters?: { in: string; schema?: UpstreamSchema }[] } }>;
  definitions: Record<string, UpstreamSchema>;
};

/** The upstream request body of `POST /generate/<path>`. */
function upstreamBody(path: string): UpstreamSchema {
  const body = upstream.paths[`/generate/${path}`]?.post?.parameters?.find((p) => p.in === 'body')?.schema;
  if (!body) throw new Error(`no upstream body for /generate/${path}`);
  return body.$ref ? upstream.definitions[body.$ref.split('/').pop()!] : body;
}
/**
 * Fields that accept more than upstream's enum, on purpose (docs/generation.md): ControlNet's
 * `modality` takes one to three modalities or presets, comma-separated, each with a weight.
 */
const widerThanUpstream = (mode: GenerationMode, field: string) =>
  mode.startsWith('controlnet') && field === 'modality';
const upstreamPath = (mode: GenerationMode) => (mode === 'custom' ? 'custom/{modelId}' : mode);

describe('the mode table', () => {
  it('has exactly the generate routes of the upstream API (custom included)', () => {
    const paths = Object.keys(upstream.paths)
      .filter((p) => p.startsWith('/generate/'))
      .map((p) => p.slice('/generate/'.length).replace('/{modelId}', ''));
    expect([...MODES].sort()).toEqual(paths.sort());
  });

  describe.each(MODES)('%s', (mode) => {
    const fields = MODE_TABLE[mode].fields as Record<
      string,
      { required?: true; enum?: readonly unknown[]; min?: number; max?: number }
    >;
    const body = upstreamBody(upstreamPath(mode));
    const properties = body.properties ?? {};

    it('has the upstream request fields, the same ones required', () => {
      const names = Object.keys(fields).sort();
      // custom: the model declares its own inputs; upstream lists the few every model takes, we validate a few more.
      if (mode === 'custom') expect(names).toEqual(expect.arrayContaining(Object.keys(properties)));
      else expect(names).toEqual(Object.keys(properties).sort());
      const required = Object.keys(fields).filter((f) => fields[f].required);
      expect(required.sort()).toEqual([...(body.required ?? [])].sort());
    });

    it('keeps the rules upstream states: enums, "should be a, b or c", "between x and y"', () => {
      for (const [name, property] of Object.entries(properties)) {
        const rule = fields[name];
        const description = property.description ?? '';
        if (property.enum && !widerThanUpstream(mode, name))
          expect({ name, values: [...(rule.enum ?? [])].sort() }).toEqual({
            name,
            values: [...property.enum].sort(),
          });
        const oneOf = /Should be ((?:[\w.]+, )*[\w.]+),? or ([\w.]+)\./.exec(description);
        if (oneOf) {
          const values = [...oneOf[1].split(', '), oneOf[2]].map((v) =>
            property.type === 'number' ? Number(v) : v,
          );
          expect({ name, values: rule.enum }).toEqual({ name, values });
        }
        const between = /between (-?[\d.]+) and (-?[\d.]+)/.exec(description);
        if (between && /[Vv]alue should be between/.test(description))
          expect({ name, min: rule.min, max: rule.max }).toEqual({
            name,
            min: Number(between[1]),
            max: Number(between[2]),
          });
      }
    });
  });

  it('prices every mode, each in its group', () => {
    expect([...GENERATION_MODES].sort()).toEqual([...MODES].sort());
    for (const mode of MODES) expect(GENERATION_MODE_GROUPS[MODE_TABLE[mode].group]).toContain(mode);
  });

  it('gives each mode a job type of its own, inference modes sharing `inference`', () => {
    for (const mode of MODES) {
      const { jobType, group } = MODE_TABLE[mode];
      expect(JOB_TYPES).toContain(jobType);
      if (jobType === 'inference') expect(group).toBe('inference');
      else expect({ mode, named: modeOfJobType(jobType) }).toEqual({ mode, named: mode });
    }
    expect(modeOfJobType('inference')).toBeUndefined();
  });

  it('names the output type of every mode that makes files, none for result-field modes', () => {
    for (const mode of MODES) {
      const { outputs, group } = MODE_TABLE[mode];
      if (group === 'text') expect(outputs).toEqual([]);
      else expect(outputs.length).toBeGreaterThan(0);
    }
    expect(outputAssetType('pixelate')).toBe('pixelization');
    expect(outputAssetType('txt2img-ip-adapter')).toBe('inference-txt2img-ip-adapter');
    expect(outputAssetType('caption')).toBe('unknown');
  });

  it('routes detect by modality: computed modalities to the image engine, the rest to preview', () => {
    expect(MODE_ROUTES).toContain('detect:canny');
    expect(MODE_ROUTES).not.toContain('detect');
    expect(builtInEngineOf('detect:canny')).toBe('image');
    expect(builtInEngineOf('detect:depth')).toBe('preview');
    expect(builtInEngineOf('caption')).toBe('text');
    expect(builtInEngineOf('txt2img')).toBe('preview');
    expect(MODE_TABLE.detect.fields.modality.enum).toEqual(
      MODE_ROUTES.filter((r) => r.startsWith('detect:')).map((r) => r.slice('detect:'.length)),
    );
  });
});

describe('docs/engines.md, "Which engine runs which mode"', () => {
  const docs = readFileSync(resolve(ROOT, 'docs/engines.md'), 'utf8');
  const section = docs.slice(
    docs.indexOf('## Which engine runs which mode'),
    docs.indexOf('\nRoutes listed by a backend'),
  );
  const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .map(([routes, engine, backends, outputs]) => ({
      routes: ticked(routes).filter((route): route is ModeRoute =>
        (MODE_ROUTES as readonly string[]).includes(route),
      ),
      engine: /^[a-z]+/.exec(engine)?.[0],
      backends: [...new Set(backends.match(/\b(comfyui|openai|replicate|cog)\b/g) ?? [])].sort(),
      outputs: ticked(outputs).sort(),
    }))
    .filter((row) => row.routes.length > 0);

  it('lists every route once', () => {
    expect(rows.flatMap((r) => r.routes).sort()).toEqual([...MODE_ROUTES].sort());
  });

  it.each(MODE_ROUTES)('says what the table says of %s', (route) => {
    const row = rows.find((r) => r.routes.includes(route))!;
    const spec = MODE_TABLE[modeOfRoute(route)] as (typeof MODE_TABLE)[GenerationMode] & { openai?: string };
    expect({ route, engine: row.engine, backends: row.backends }).toEqual({
      route,
      engine: builtInEngineOf(route),
      backends: [...spec.backends, ...(spec.openai ? ['openai'] : [])].sort(),
    });
    // A row of several routes lists the output types of them all.
    const outputs = [...new Set(row.routes.flatMap((r) => MODE_TABLE[modeOfRoute(r)].outputs))].sort();
    expect({ route, outputs: row.outputs }).toEqual({ route, outputs });
  });
});
