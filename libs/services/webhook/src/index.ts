export { WEBHOOK_SCHEMA, WEBHOOK_SERVICE } from './webhook.schema';
export { WebhookDispatcherModule } from './webhook.module';
export { WebhookCoreModule } from './webhook-core.module';
export { WEBHOOK_CONFIG, loadWebhookConfig, webhookEnv, type WebhookConfig } from './webhook.config';
export { SecretBox, SECRET_BOX } from './secrets/secret-box';
export { DELIVERIES_CHANNEL } from './deliveries/delivery-wakeup';
export { reclaimDeliveryLeases } from './dispatch/delivery.repository';
export { OWNER_TYPES, type OwnerType } from './owners/webhook-owner';
export {
  PROJECT_EVENT_TYPES,
  TEAM_EVENT_TYPES,
  ALL_EVENTS,
  CREDIT_EVENT_VERSION,
  type PublicEventType,
  type EventBody,
} from './event-catalog';
