import type { LoggerService } from '@nestjs/common';
import type { DatabaseConnection } from '@genasset/persistence';
import type { ServiceDescriptor } from './service-descriptor';

/**
 * A process that crashed leaves the rows its workers had claimed leased to it: inference work
 * items, archive exports, webhook deliveries wait out their lease (60 s by default) before any
 * worker takes them again. An embedded process knows better: its PGlite connection exists only
 * under the data directory's lock (openConnection), so no other worker of this database is alive
 * and every lease still running is a dead process's. It ends them at start, before Nest starts
 * its own workers (so it never ends a lease of this process). Never with PostgreSQL: there other
 * replicas may be alive, and their leases are live.
 */
export async function reclaimLeasesAtStart(
  connection: DatabaseConnection,
  services: readonly ServiceDescriptor[],
  logger: LoggerService,
): Promise<void> {
  if (connection.kind !== 'pglite') return;
  const reclaimed: string[] = [];
  for (const service of services) {
    const count = (await service.reclaimLeases?.(connection)) ?? 0;
    if (count > 0) reclaimed.push(`${service.name} ${count}`);
  }
  if (reclaimed.length > 0) {
    logger.log(`reclaimed work a previous run left unfinished (it stopped without giving it back): ${reclaimed.join(', ')}`);
  }
}
