export { RetentionModule, DeliveryPurgeLifecycle } from './retention.module';
export { DeliveryPurge, PURGE_BATCH, type PurgeOptions } from './delivery-purge';
