import 'reflect-metadata';
import { runProcess } from '@genasset/runtime';
import { reclaimDeliveryLeases, WEBHOOK_SCHEMA, WEBHOOK_SERVICE, WebhookDispatcherModule } from '@genasset/service-webhook';

// webhook-dispatcher as its own process (distributed mode): DATABASE_URL, KAFKA_BROKERS, S3_* from the environment.
runProcess({
  name: WEBHOOK_SERVICE,
  description: 'Webhook endpoints and signed, retried deliveries',
  services: [{ name: WEBHOOK_SERVICE, schema: WEBHOOK_SCHEMA, module: WebhookDispatcherModule, reclaimLeases: reclaimDeliveryLeases }],
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
