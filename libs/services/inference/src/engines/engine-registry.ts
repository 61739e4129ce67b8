import { ConfigError } from '@genasset/config';
import { isBackendEngine, isServerEngine, type BackendEngine, type ServerEngine } from './backend-engine';
import type { Engine } from './engine';
import { builtInEngineOf, isModeRoute } from '@genasset/contracts';
import { knownRoute, TRAINING_ROUTE } from './modes';

export const ENGINE_NAMES = ['image', 'text', 'preview', 'http', 'none'] as const;
/** A built-in engine, or a backend named in INFERENCE_BACKENDS_FILE (`gpu1`). */
export type EngineName = string;

/**
 * `INFERENCE_ENGINES=pixelate=image,txt2img=http,detect:depth=none` → route → engine; an engine
 * may also be a backend of INFERENCE_BACKENDS_FILE (`txt2img=gpu1`).
 * Unknown modes, engines and malformed entries fail start-up naming the variable.
 */
export function parseEngineOverrides(text: string, backends: readonly string[] = []): Map<string, EngineName> {
  const names: readonly string[] = [...ENGINE_NAMES, ...backends];
  const overrides = new Map<string, EngineName>();
  const problems: string[] = [];
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [route, engine, ...rest] = entry.split('=').map((s) => s.trim());
    if (!route || !engine || rest.length > 0) problems.push(`"${entry}" is not mode=engine`);
    else if (!knownRoute(route)) problems.push(`"${route}" is not a generation mode (or detect:<modality>)`);
    else if (!names.includes(engine)) problems.push(`"${engine}" is not an engine (${names.join(', ')})`);
    else overrides.set(route, engine);
  }
  if (problems.length)
    throw new ConfigError(problems.map((message) => ({ variable: 'INFERENCE_ENGINES', message })));
  return overrides;
}

export interface ResolvedEngine {
  name: EngineName;
  /** Absent for `none`. */
  engine?: Engine;
  /** Why there is none, when the route's usual reason (noEngineReason) is not it. */
  reason?: string;
}

/**
 * Which engine runs each route: an INFERENCE_ENGINES entry for the route
 * (`detect:depth`), else one for its mode (`detect`), else the default — the
 * image engine for what it supports, the text engine for caption, describe-style,
 * embed and prompt (when registered), the preview engine for the rest when
 * preview is on (embedded and non-production), none otherwise.
 */
export class EngineRegistry {
  private readonly byName: Map<string, Engine>;

  constructor(
    engines: readonly Engine[],
    private readonly overrides: ReadonlyMap<string, EngineName>,
    private readonly previewByDefault: boolean,
  ) {
    this.byName = new Map(engines.map((e) => [e.name, e]));
    const problems: { variable: string; message: string }[] = [];
    for (const [route, name] of overrides) {
      if (name === 'none') continue;
      const engine = this.byName.get(name);
      if (!engine)
        problems.push({
          variable: name === 'http' ? 'INFERENCE_HTTP_URL' : 'INFERENCE_ENGINES',
          message: `${route}=${name} needs the ${name} engine, which is not configured`,
        });
      // A whole-mode entry for detect is checked on its default modality.
      else if (!engine.supports(route === 'detect' ? 'detect:canny' : route))
        problems.push({ variable: 'INFERENCE_ENGINES', message: `the ${name} engine cannot run ${route}` });
    }
    if (problems.length) throw new ConfigError(problems);
  }

  resolve(route: string): ResolvedEngine {
    const explicit = this.overrides.get(route);
    if (explicit) return this.named(explicit, route);
    const mode = route.split(':')[0];
    const forMode = this.overrides.get(mode);
    if (forMode) {
      const resolved = this.named(forMode, route);
      // A whole-mode entry (detect=image) covers the variants its engine runs; the rest keep their default.
      if (forMode === 'none' || resolved.engine) return resolved;
    }
    return this.named(this.defaultFor(route), route);
  }

  /**
   * The engine of one job: the backend its model's registry entry names (`input.backend` on a
   * training, `input.learnedModel.backend` on a generation naming the model: docs/models.md), else
   * the route's. A named backend this process does not have, or that does not serve the route,
   * is no engine, with a reason naming both.
   */
  resolveFor(route: string, input: Record<string, unknown>): ResolvedEngine {
    const named = backendNamedBy(input);
    if (!named) return this.resolve(route);
    const engine = this.byName.get(named);
    if (!engine || !isServerEngine(engine))
      return { name: 'none', reason: `the model names the backend ${named}, which is not configured on this server (INFERENCE_BACKENDS_FILE)` };
    if (!engine.supports(route))
      return { name: 'none', reason: `the model names the backend ${named}, which does not serve ${route} (its routes in INFERENCE_BACKENDS_FILE)` };
    return { name: named, engine };
  }

  /** The backend engines (INFERENCE_BACKENDS_FILE), for readiness and the start-up log. */
  backends(): ServerEngine[] {
    return [...this.byName.values()].filter(isServerEngine);
  }

  /** The backend engine of that name (a stored task names its backend), if this process has it. */
  backend(name: string): BackendEngine | undefined {
    const engine = this.byName.get(name);
    return engine && isBackendEngine(engine) ? engine : undefined;
  }

  /** The engine of every route, for the start-up log and docs. */
  table(routes: readonly string[]): Record<string, EngineName> {
    return Object.fromEntries(routes.map((r) => [r, this.resolve(r).name]));
  }

  private named(name: EngineName, route: string): ResolvedEngine {
    const engine = name === 'none' ? undefined : this.byName.get(name);
    return engine && engine.supports(route) ? { name, engine } : { name: 'none' };
  }

  private defaultFor(route: string): EngineName {
    // The mode table's built-in engine: image for what classical methods compute, text for the result-field
    // modes with a classical answer (the text engine hands what needs a model to preview), else preview.
    if (route === TRAINING_ROUTE) return 'image';
    const builtIn = isModeRoute(route) ? builtInEngineOf(route) : 'preview';
    if (builtIn === 'image') return 'image';
    if (builtIn === 'text' && this.byName.has('text')) return 'text';
    return this.previewByDefault ? 'preview' : 'none';
  }
}

/** The failure reason of a job whose route has no engine: what to configure, in a client's words. */
export function noEngineReason(route: string): string {
  const [mode, modality] = route.split(':');
  const what = modality ? `detect modality ${modality}` : `mode ${mode}`;
  return `${what} has no engine configured on this server (operators: set INFERENCE_ENGINES, e.g. ${route}=http with INFERENCE_HTTP_URL)`;
}

/** The backend a job's model names: `input.backend` (a training), `input.learnedModel.backend` (a generation). */
function backendNamedBy(input: Record<string, unknown>): string | undefined {
  if (typeof input.backend === 'string' && input.backend) return input.backend;
  const learned = input.learnedModel as { backend?: unknown } | undefined;
  return typeof learned?.backend === 'string' && learned.backend ? learned.backend : undefined;
}
