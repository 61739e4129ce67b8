export { DispatchModule, DeliveryWorkerLifecycle } from './dispatch.module';
export { DeliveryWorker, type WorkerStats } from './delivery-worker';
export { dispatchSettings, type DispatchSettings } from './dispatch.settings';
export { SERVICE_ERROR_CODE, NETWORK_ERROR_CODE } from './attempt-outcome';
export { DELIVERY_HANDOFF, type DeliveryHandoff, type DeliveryHandoffPort } from './delivery-handoff';
export type { ClaimedDelivery } from './delivery.repository';
