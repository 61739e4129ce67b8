import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PROCESS_ENV } from '@genasset/config';
import { DatabaseModule, PostgresConnection } from '@genasset/persistence';
import { DeliveryWorkerLifecycle } from '../../dispatch.module';
import { DispatchTestModule } from './dispatch-test.module';

/**
 * A dispatcher as its own OS process (DATABASE_URL and WEBHOOK_* from the
 * environment), for the crash and multi-replica tests: prints READY once the
 * worker runs, and `STATS {...}` after a SIGTERM drained it.
 */
@Global()
@Module({ providers: [{ provide: PROCESS_ENV, useValue: process.env }], exports: [PROCESS_ENV] })
class EnvModule {}

async function main(): Promise<void> {
  const connection = new PostgresConnection(process.env.DATABASE_URL!, {
    poolSize: 4,
    applicationName: 'dispatcher-fixture',
  });
  @Module({ imports: [DatabaseModule.forConnection(connection), EnvModule, DispatchTestModule] })
  class FixtureModule {}
  const app = await NestFactory.createApplicationContext(FixtureModule, { logger: ['error', 'warn'] });
  await app.init();
  console.log(`READY ${process.pid}`);
  process.once('SIGTERM', () => {
    const worker = app.get(DeliveryWorkerLifecycle).worker;
    void (async () => {
      await app.close();
      const cpu = process.cpuUsage();
      console.log(
        `STATS ${JSON.stringify({ ...worker.stats(), cpuMs: Math.round((cpu.user + cpu.system) / 1000) })}`,
      );
      process.exit(0);
    })();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
