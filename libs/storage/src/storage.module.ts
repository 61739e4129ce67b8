import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { loadConfig } from '@genasset/config';
import { createObjectStore, type StorageConfig, storageEnv, storageKind } from './create-object-store';
import { FilesModule } from './filesystem/files.module';
import type { ObjectStore } from './object-store';
import { OBJECT_STORE } from './storage.tokens';

export interface StorageModuleOptions {
  /** Defaults to the storage variables read from the environment when `forRoot` is called. */
  config?: StorageConfig;
  /** Use this store instead of building one (tests). */
  store?: ObjectStore;
  /** Serve `/v1/files/*` for the filesystem store's signed URLs. Default true; workers without HTTP pass false. */
  serveFiles?: boolean;
}

/**
 * Global provider of `OBJECT_STORE`. Which adapter is decided here from the
 * configuration (S3 when S3_BUCKET is set), and the files route is added only
 * when the filesystem store needs it.
 */
@Module({})
export class StorageModule implements OnApplicationShutdown {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  static forRoot(options: StorageModuleOptions = {}): DynamicModule {
    const config = options.store ? undefined : (options.config ?? loadConfig(storageEnv));
    const kind = options.store?.kind ?? storageKind(config!);
    const serveFiles = kind === 'filesystem' && options.serveFiles !== false;
    return {
      module: StorageModule,
      global: true,
      imports: serveFiles ? [FilesModule] : [],
      providers: [{ provide: OBJECT_STORE, useFactory: () => options.store ?? createObjectStore(config!) }],
      exports: [OBJECT_STORE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
