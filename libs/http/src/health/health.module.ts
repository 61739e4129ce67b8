import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { ReadinessRegistry } from './readiness.registry';

/**
 * Global so any module can inject {@link ReadinessRegistry} and register its
 * checks without importing this one. `createHttpApp` includes it.
 */
@Global()
@Module({ controllers: [HealthController, MetricsController], providers: [ReadinessRegistry], exports: [ReadinessRegistry] })
export class HealthModule {}
