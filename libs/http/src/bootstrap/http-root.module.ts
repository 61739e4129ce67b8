import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { TracingFlush } from '@genasset/observability';
import { HealthModule } from '../health/health.module';
import { loggerParams, type LoggerSettings } from '../logging/logger.options';

/**
 * Wraps an app's root module with what every HTTP app has (request logging,
 * health and readiness), so apps cannot forget them and do not repeat them.
 */
@Module({})
export class HttpRootModule {
  static wrap(root: Type | DynamicModule, logging: LoggerSettings): DynamicModule {
    return {
      module: HttpRootModule,
      imports: [LoggerModule.forRoot(loggerParams(logging)), HealthModule, root],
      providers: [TracingFlush],
    };
  }
}
