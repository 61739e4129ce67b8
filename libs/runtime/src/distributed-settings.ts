import type { CommonEnv } from '@genasset/config';

/**
 * A single service's process in production runs as one part of a distributed deployment: without
 * DATABASE_URL it would quietly open an embedded PGlite under DATA_DIR (a database of its own, and
 * on a first start a tenant with credentials), and without KAFKA_BROKERS it would keep its events
 * in-process, where no other service hears them. Both start and report ready, so a manifest that
 * forgets one is only noticed when data goes missing. Refused at start instead, naming what is
 * missing; the platform app (every service in one process) keeps its embedded fallbacks.
 * @returns why the process must not start, or undefined
 */
export function missingDistributedSettings(
  config: Pick<CommonEnv, 'NODE_ENV' | 'DATABASE_URL' | 'KAFKA_BROKERS'>,
  processName: string,
  embeddedAllowed: boolean,
): string | undefined {
  if (embeddedAllowed || config.NODE_ENV !== 'production') return undefined;
  const missing = [
    ...(config.DATABASE_URL ? [] : ['DATABASE_URL']),
    ...(config.KAFKA_BROKERS?.length ? [] : ['KAFKA_BROKERS']),
  ];
  if (missing.length === 0) return undefined;
  return `${missing.join(' and ')}: required in production, where ${processName} runs as one service of a distributed deployment (only the platform app falls back to an embedded database and in-process events)`;
}
