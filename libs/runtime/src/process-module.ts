import { Global, Module, type DynamicModule, type Type } from '@nestjs/common';
import { AuthModule } from '@genasset/auth';
import { PROCESS_ENV, type CommonEnv } from '@genasset/config';
import { AdminModule, IdentityModule } from '@genasset/identity';
import { InternalApiModule } from '@genasset/internal-api';
import { MessagingModule } from '@genasset/messaging';
import { DatabaseModule, type DatabaseConnection } from '@genasset/persistence';
import { StorageModule } from '@genasset/storage';
import { DatabaseReadiness } from './database-readiness';
import { HeapTrimmer } from './heap-trimmer';

export interface ProcessModuleOptions {
  name: string;
  config: CommonEnv;
  /** The raw environment, for service modules' own settings (PROCESS_ENV). */
  env: NodeJS.ProcessEnv;
  connection: DatabaseConnection;
  services: readonly Type<unknown>[];
  /** Internal API tokens provided by the services of this process. */
  localApis: ReadonlySet<symbol>;
  /** Mount `/admin/v1` with this token (job-service and platform). */
  adminToken?: string;
  /** Serve `GET /v1/me` (credential check for clients). */
  serveMe?: boolean;
}

/**
 * The infrastructure every process shares — database, identity and auth,
 * object storage, the event transport — plus the service modules it runs.
 * Only adapters differ between embedded and distributed mode, chosen here from
 * the configuration: PGlite or PostgreSQL, in-process or Kafka, filesystem or S3.
 */
@Global()
@Module({})
export class ProcessModule {
  static register(options: ProcessModuleOptions): DynamicModule {
    const { config } = options;
    const kafka = Boolean(config.KAFKA_BROKERS?.length);
    return {
      module: ProcessModule,
      imports: [
        DatabaseModule.forConnection(options.connection),
        IdentityModule,
        AuthModule.forRoot({ cacheTtlMs: config.AUTH_CACHE_TTL, serveMe: options.serveMe ?? false }),
        StorageModule.forRoot({ config }),
        MessagingModule.forRoot({
          transport: kafka ? 'kafka' : 'in-process',
          brokers: config.KAFKA_BROKERS,
          clientId: config.KAFKA_CLIENT_ID ?? options.name,
          groupPrefix: config.KAFKA_GROUP_PREFIX,
          fromBeginning: config.KAFKA_FROM_BEGINNING,
          fetchMaxWaitMs: config.KAFKA_FETCH_MAX_WAIT,
          sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT,
          commitIntervalMs: config.KAFKA_COMMIT_INTERVAL,
        }),
        InternalApiModule.forProcess({ ...config, local: options.localApis }),
        ...options.services,
        ...(options.adminToken ? [AdminModule.forToken(options.adminToken)] : []),
      ],
      providers: [
        DatabaseReadiness,
        { provide: PROCESS_ENV, useValue: options.env },
        { provide: HeapTrimmer, useFactory: () => new HeapTrimmer(config.HEAP_TRIM_INTERVAL) },
      ],
      exports: [PROCESS_ENV],
    };
  }
}
