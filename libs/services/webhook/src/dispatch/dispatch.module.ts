import {
  Inject,
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import { SECRET_BOX } from '../secrets/secret-box';
import { WebhookCoreModule } from '../webhook-core.module';
import { WebhookMetrics } from '../metrics/webhook-metrics.provider';
import { WEBHOOK_CONFIG, type WebhookConfig } from '../webhook.config';
import { DeliveryWorker } from './delivery-worker';
import { DELIVERY_HANDOFF } from './delivery-handoff';
import { dispatchSettings } from './dispatch.settings';
import type { SecretOpener } from './endpoint-targets';

/** Runs this process's delivery worker from application bootstrap to shutdown. */
@Injectable()
export class DeliveryWorkerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly worker: DeliveryWorker;

  constructor(
    @Inject(DATABASE_CONNECTION) db: DatabaseConnection,
    @Inject(SECRET_BOX) secrets: SecretOpener,
    @Inject(WEBHOOK_CONFIG) config: WebhookConfig,
    @Inject(PROCESS_ENV) env: NodeJS.ProcessEnv,
  ) {
    this.worker = new DeliveryWorker(db, secrets, dispatchSettings(config, env));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.start();
  }

  /** Before the database connection closes (onApplicationShutdown): finish and record attempts in flight. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}

/**
 * Webhook delivery: claims due deliveries from PostgreSQL, sends signed POSTs,
 * records attempts and retries. Every replica of the webhook-dispatcher runs
 * one worker; they share the queue through row locks and leases.
 */
@Module({
  imports: [WebhookCoreModule],
  providers: [
    DeliveryWorkerLifecycle,
    WebhookMetrics,
    // The intake of this process hands new deliveries straight to this worker.
    {
      provide: DELIVERY_HANDOFF,
      useFactory: (lifecycle: DeliveryWorkerLifecycle) => lifecycle.worker,
      inject: [DeliveryWorkerLifecycle],
    },
  ],
  exports: [DeliveryWorkerLifecycle, DELIVERY_HANDOFF],
})
export class DispatchModule {}
