import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import { webhookQueueSources } from './webhook.metrics';

/** Lets the scrape read this dispatcher's delivery queue while the app runs. */
@Injectable()
export class WebhookMetrics implements OnModuleInit, OnModuleDestroy {
  private remove?: () => void;

  constructor(@Inject(DATABASE_CONNECTION) private readonly db: DatabaseConnection) {}

  onModuleInit(): void {
    this.remove = webhookQueueSources.add(this.db);
  }

  onModuleDestroy(): void {
    this.remove?.();
  }
}
