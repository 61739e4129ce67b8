import type { EventDefinition } from '../envelope/define-event';
import { ProbeRecorded } from './probe.events';

/** Every event definition, by type. Consumers validate messages against it. */
export const EVENT_DEFINITIONS: readonly EventDefinition[] = [ProbeRecorded as EventDefinition];

export function buildEventRegistry(definitions: readonly EventDefinition[] = EVENT_DEFINITIONS): Map<string, EventDefinition> {
  const registry = new Map<string, EventDefinition>();
  for (const definition of definitions) {
    if (registry.has(definition.type)) throw new Error(`event type ${definition.type} is defined twice`);
    registry.set(definition.type, definition);
  }
  return registry;
}
