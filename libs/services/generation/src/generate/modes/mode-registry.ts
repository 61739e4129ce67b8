import { INFERENCE_MODES } from './inference.modes';
import { TOOL_MODES } from './tool.modes';
import { fromModeTable, type ModeDefinition } from './mode-definition';

/**
 * Every `POST /v1/generate/{mode}` route but the custom-model one: the route,
 * its body, job type and response are all read from here, so a mode is one
 * entry, not a controller method.
 */
export const MODE_REGISTRY: readonly ModeDefinition[] = [...INFERENCE_MODES, ...TOOL_MODES]
  .map(fromModeTable)
  .sort((a, b) => a.name.localeCompare(b.name));

const BY_NAME = new Map<string, ModeDefinition>(MODE_REGISTRY.map((mode) => [mode.name, mode]));

export function modeDefinition(name: string): ModeDefinition {
  const mode = BY_NAME.get(name);
  if (!mode) throw new Error(`unknown generation mode ${name}`);
  return mode;
}
