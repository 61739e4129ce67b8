import { Logger } from '@nestjs/common';
import { commonEnv, loadConfig, type CommonEnv } from '@genasset/config';
import { ADMIN_DOCS_PATH, CONSOLE_PATH, createHttpApp, printBesideLogs, startHttpApp, type RunningHttpApp } from '@genasset/http';
import { IDENTITY_SCHEMA, IdentityService } from '@genasset/identity';
import { connectMessaging } from '@genasset/messaging';
import { startTracing } from '@genasset/observability';
import { PgliteConnection, migrate, openConnection } from '@genasset/persistence';
import { missingDistributedSettings } from './distributed-settings';
import { bootstrapEmbeddedTenant, embeddedAdminToken } from './embedded-bootstrap';
import { ProcessModule } from './process-module';
import { reclaimLeasesAtStart } from './reclaim-leases';
import type { ServiceDescriptor } from './service-descriptor';
import { startupBanner } from './startup-banner';

export interface RunProcessOptions {
  /** Process name: log `service` field, Kafka client id, OpenAPI title. */
  name: string;
  services: readonly ServiceDescriptor[];
  description: string;
  /** Mount `/admin/v1` (when an admin token is available) and `GET /v1/me`. */
  adminApi?: boolean;
  /** Environment to read (tests pass their own). */
  env?: NodeJS.ProcessEnv;
  /** Install SIGTERM/SIGINT handlers (default true). */
  handleSignals?: boolean;
  /**
   * May fall back to embedded parts (PGlite, in-process events) in production: the platform app.
   * A single service's process may not (missingDistributedSettings).
   */
  embeddedAllowed?: boolean;
  /** Serve the web console's build from this directory at /console (platform; asset-service behind the gateway). */
  consoleDir?: string;
}

export interface RunningProcess extends RunningHttpApp {
  config: CommonEnv;
  embedded: boolean;
}

/**
 * Starts one process: validated configuration, database connection (PGlite
 * when DATABASE_URL is unset — then migrations run here too, as nothing else
 * would run them), the Nest app with its HTTP server, then the consumers.
 */
export async function runProcess(options: RunProcessOptions): Promise<RunningProcess> {
  const env = options.env ?? process.env;
  const config = loadConfig(commonEnv, env);
  const missing = missingDistributedSettings(config, options.name, options.embeddedAllowed ?? false);
  if (missing) throw new Error(missing);
  const logger = new Logger(options.name);
  // Before anything that could open a span: on only with an OTLP endpoint configured.
  const tracing = startTracing({ serviceName: options.name, env });
  const connection = await openConnection(config, options.name);
  const embedded = connection.kind === 'pglite';
  if (embedded) {
    let applied = 0;
    for (const definition of [IDENTITY_SCHEMA, ...options.services.map((s) => s.schema)]) applied += (await migrate(connection, definition)).filter((m) => m.applied).length;
    if (applied > 0 && connection instanceof PgliteConnection) await connection.reopen();
  }
  await reclaimLeasesAtStart(connection, options.services, logger);
  if (!config.KAFKA_BROKERS?.length && !embedded) {
    logger.warn('KAFKA_BROKERS is unset: events use the in-process transport and reach only services in this process');
  }
  const adminToken = options.adminApi ? (embedded ? embeddedAdminToken(config.DATA_DIR, config.ADMIN_TOKEN) : config.ADMIN_TOKEN) : undefined;
  if (options.adminApi && !adminToken) logger.warn('ADMIN_TOKEN is unset: the admin API (/admin/v1) is disabled');

  const app = await createHttpApp(
    ProcessModule.register({
      name: options.name,
      config,
      env,
      connection,
      services: options.services.map((s) => s.module),
      localApis: new Set(options.services.flatMap((s) => s.provides ?? [])),
      adminToken,
      serveMe: options.adminApi,
    }),
    {
      serviceName: options.name,
      logLevel: config.LOG_LEVEL,
      openapi: { title: `genasset ${options.name}`, description: options.description, admin: Boolean(adminToken) },
      consoleDir: options.consoleDir,
    },
  );
  connectMessaging(app);
  const running = await startHttpApp(app, {
    port: config.PORT,
    host: config.HOST,
    shutdownGraceMs: config.SHUTDOWN_GRACE,
    handleSignals: options.handleSignals,
  });
  await app.startAllMicroservices();

  if (embedded && adminToken) {
    const created = await bootstrapEmbeddedTenant(app.get(IdentityService), config.DATA_DIR, adminToken);
    if (created) logger.log(`first start: created team ${created.teamId}, project ${created.projectId}; credentials in ${config.DATA_DIR}/bootstrap.json`);
  }
  if (tracing.enabled) logger.log('tracing on: spans exported over OTLP');
  // For the person who ran `npm start`: where things are, and a first call (startup-banner.ts).
  if (embedded && adminToken) printBesideLogs(startupBanner({ url: running.url, dataDir: config.DATA_DIR, adminDocsPath: ADMIN_DOCS_PATH, consolePath: options.consoleDir ? CONSOLE_PATH : undefined }));
  return { ...running, config, embedded };
}
