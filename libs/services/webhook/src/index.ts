export { WEBHOOK_SCHEMA, WEBHOOK_SERVICE } from './webhook.schema';
export { WebhookDispatcherModule } from './webhook.module';
