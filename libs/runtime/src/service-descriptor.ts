import type { Type } from '@nestjs/common';
import type { DatabaseConnection, SchemaDefinition } from '@genasset/persistence';

/** One service as a process composes it: its name (also its consumer name), schema and Nest module. */
export interface ServiceDescriptor {
  readonly name: string;
  readonly schema: SchemaDefinition;
  readonly module: Type<unknown>;
  /** Internal API tokens this service provides in-process (others get HTTP clients for them). */
  readonly provides?: readonly symbol[];
  /**
   * Ends every lease this service's work queues hold (rows a worker claimed and has not
   * finished), so its workers take them again at once instead of when the leases run out;
   * returns how many. Called only by reclaimLeasesAtStart, where no other worker can be alive.
   */
  readonly reclaimLeases?: (db: Pick<DatabaseConnection, 'query'>) => Promise<number>;
}
