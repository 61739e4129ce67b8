import type { ObjectStore } from '@genasset/storage';
import { isBackendEngine, isServerEngine, type BackendEngine, type ServerEngine } from '../engines/backend-engine';
import type { Engine } from '../engines/engine';
import { noEngineReason, type EngineRegistry } from '../engines/engine-registry';
import { EXPORT_ROUTE, routeOf } from '../engines/modes';
import { exportModel } from '../engines/training/model-export';
import type { ClaimedItem } from './work-queue.repository';

/** The engine a job runs in, with what kind of engine it is. */
export interface JobEngine {
  engine: Engine;
  /** Set when the engine runs work on a backend asynchronously (runBackendTask). */
  backend?: BackendEngine;
  /** Set when the engine is a model server of a known protocol. */
  server?: ServerEngine;
  /** What made the outputs, as their metadata says: the server's protocol (`comfyui`), else the engine's name. */
  madeBy: string;
  /** `input.learnedModel.colours` when the engine's image outputs take a trained model's learned colours. */
  learnedColours?: string;
}

/**
 * Which engine runs a claimed job: the route its mode and input resolve to,
 * through the registry (or the backend the job's model names); model exports are packed by the worker itself. A
 * reason for the client when no engine serves the route.
 */
export class EngineResolution {
  constructor(
    private readonly registry: EngineRegistry,
    private readonly store: ObjectStore,
  ) {}

  resolve(item: Pick<ClaimedItem, 'mode' | 'input'>): JobEngine | { reason: string } {
    const route = routeOf(item.mode, item.input);
    // Model exports are not an engine choice: the worker packs the files itself.
    // A model naming its backend (resolveFor) runs there, or fails saying why.
    const resolved =
      route === EXPORT_ROUTE
        ? { engine: { name: 'export', supports: () => true, run: (j, c) => exportModel(j, c, this.store) } as Engine }
        : this.registry.resolveFor(route, item.input);
    const engine = resolved.engine;
    if (!engine) return { reason: ('reason' in resolved && resolved.reason) || noEngineReason(route) };
    const backend = isBackendEngine(engine) ? engine : undefined;
    const server = isServerEngine(engine) ? engine : undefined;
    // A generation naming a model the built-in trainer trained: its image outputs take the learned colours.
    // An http engine runs its own model, so its outputs are left as they are.
    const learnedColours = engine.name === 'http' || server ? undefined : learnedColoursKey(item.input);
    return {
      engine,
      ...(backend ? { backend } : {}),
      ...(server ? { server } : {}),
      madeBy: server?.type ?? engine.name,
      ...(learnedColours ? { learnedColours } : {}),
    };
  }
}

/** `input.learnedModel.colours`: the key of the model's colour statistics, only under the job's project's models. */
function learnedColoursKey(input: Record<string, unknown>): string | undefined {
  const learned = input.learnedModel as { colours?: unknown; projectId?: unknown } | undefined;
  return typeof learned?.colours === 'string' && learned.colours.startsWith('models/')
    ? learned.colours
    : undefined;
}
