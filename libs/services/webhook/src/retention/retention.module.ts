import {
  Inject,
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import { WebhookCoreModule } from '../webhook-core.module';
import { WEBHOOK_CONFIG, type WebhookConfig } from '../webhook.config';
import { DeliveryPurge } from './delivery-purge';

/** Runs the purge on a timer from bootstrap to shutdown. */
@Injectable()
export class DeliveryPurgeLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly purge: DeliveryPurge;

  constructor(
    @Inject(DATABASE_CONNECTION) db: DatabaseConnection,
    @Inject(WEBHOOK_CONFIG) config: WebhookConfig,
  ) {
    this.purge = new DeliveryPurge(db, {
      retentionMs: config.WEBHOOK_RETENTION,
      intervalMs: config.WEBHOOK_PURGE_INTERVAL,
    });
  }

  onApplicationBootstrap(): void {
    this.purge.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.purge.stop();
  }
}

/** Delivery log retention (spec: 90 days): deliveries and their attempts older than WEBHOOK_RETENTION are deleted. */
@Module({
  imports: [WebhookCoreModule],
  providers: [DeliveryPurgeLifecycle],
  exports: [DeliveryPurgeLifecycle],
})
export class RetentionModule {}
