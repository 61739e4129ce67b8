import type { Type } from '@nestjs/common';
import type { SchemaDefinition } from '@genasset/persistence';

/** One service as a process composes it: its name (also its consumer name), schema and Nest module. */
export interface ServiceDescriptor {
  readonly name: string;
  readonly schema: SchemaDefinition;
  readonly module: Type<unknown>;
  /** Internal API tokens this service provides in-process (others get HTTP clients for them). */
  readonly provides?: readonly symbol[];
}
