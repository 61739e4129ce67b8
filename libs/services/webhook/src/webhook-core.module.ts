import { Module } from '@nestjs/common';
import { PROCESS_ENV } from '@genasset/config';
import { SECRET_BOX, SecretBox } from './secrets/secret-box';
import { loadSecretKey } from './secrets/secret-key';
import { WebhookDataModule } from './webhook-data.module';
import { loadWebhookConfig, WEBHOOK_CONFIG, type WebhookConfig } from './webhook.config';

/**
 * What every webhook feature shares: validated settings (from the process's
 * environment, so a harness can run several configurations in one Node
 * process), the secret box, and the data layer. Feature modules — endpoints,
 * deliveries, intake, the delivery workers — import this.
 */
@Module({
  imports: [WebhookDataModule],
  providers: [
    {
      provide: WEBHOOK_CONFIG,
      useFactory: (env: NodeJS.ProcessEnv) => loadWebhookConfig(env),
      inject: [PROCESS_ENV],
    },
    {
      provide: SECRET_BOX,
      useFactory: (config: WebhookConfig) => new SecretBox(loadSecretKey(config)),
      inject: [WEBHOOK_CONFIG],
    },
  ],
  exports: [WEBHOOK_CONFIG, SECRET_BOX, WebhookDataModule],
})
export class WebhookCoreModule {}
