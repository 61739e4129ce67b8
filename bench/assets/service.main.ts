/**
 * The asset-service as apps/asset-service runs it (same descriptor, same
 * runProcess), plus the admin API so the bench can create its team, project
 * and API key the way an operator does. Configured by the bench's environment.
 */
import 'reflect-metadata';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ASSETS_API } from '@genasset/contracts';
import { runProcess } from '@genasset/runtime';
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule } from '@genasset/service-asset';

runProcess({
  name: ASSET_SERVICE,
  description: 'bench: asset-service',
  services: [
    { name: ASSET_SERVICE, schema: ASSET_SCHEMA, module: AssetServiceModule, provides: [ASSETS_API] },
  ],
  adminApi: true,
})
  .then((running) => {
    console.log(`READY ${running.url}`);
    if (process.env.BENCH_LOOP_DELAY) {
      // How long the event loop was blocked, every 5 s (to tell the service's own stalls from the machine's).
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      setInterval(() => {
        const ms = (n: number) => (n / 1e6).toFixed(1);
        console.log(
          `LOOP p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} max ${ms(delay.max)} ms`,
        );
        delay.reset();
      }, 5000).unref();
    }
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
