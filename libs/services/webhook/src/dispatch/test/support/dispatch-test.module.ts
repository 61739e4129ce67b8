import { Module } from '@nestjs/common';
import { startServiceHarness, type ServiceHarness } from '@genasset/testing';
import { WEBHOOK_SCHEMA, WEBHOOK_SERVICE } from '../../../webhook.schema';
import { DispatchModule } from '../../dispatch.module';
import { RetentionModule } from '../../../retention/retention.module';
import { TEST_SECRET_KEY } from './webhook-rows';

/** The delivery worker and the retention purge on their own, as the dispatcher process composes them. */
@Module({ imports: [DispatchModule, RetentionModule] })
export class DispatchTestModule {}

/**
 * The delivery worker and the purge in a harness of their own (in-process transport), reaching
 * local receivers over plain HTTP; `env` adds each test's timings and caps.
 */
export function startDispatchHarness(env: Record<string, string>): Promise<ServiceHarness> {
  return startServiceHarness({
    services: [{ name: WEBHOOK_SERVICE, schema: WEBHOOK_SCHEMA, module: DispatchTestModule }],
    transport: 'in-process',
    env: {
      WEBHOOK_SECRET_KEY: TEST_SECRET_KEY,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      ...env,
    },
  });
}
