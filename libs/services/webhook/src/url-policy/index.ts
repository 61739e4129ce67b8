export { classifyAddress, isForbiddenAddress, type ForbiddenAddressKind } from './address-classifier';
export { checkWebhookUrl, type UrlPolicy, type UrlCheck, type ResolveAll } from './check-webhook-url';
export {
  guardedConnector,
  guardedLookup,
  ForbiddenTargetError,
  type GuardedConnectorOptions,
  type LookupAll,
} from './guarded-connector';
