import { Global, Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import type { DatabaseConnection } from '../database';

/** Injection token of the process's one `DatabaseConnection`. */
export const DATABASE_CONNECTION = Symbol('DATABASE_CONNECTION');

class ConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection) {}
  async onApplicationShutdown(): Promise<void> {
    // Closed last: Nest calls shutdown hooks after every consumer and relay stopped.
    await this.connection.close();
  }
}

/**
 * Makes an already opened connection injectable everywhere. Opening it is the
 * app's job (main.ts), so a bad DATABASE_URL fails before Nest starts.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forConnection(connection: DatabaseConnection): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DATABASE_CONNECTION, useValue: connection }, ConnectionCloser],
      exports: [DATABASE_CONNECTION],
    };
  }
}
