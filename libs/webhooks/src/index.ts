// @genasset/webhooks: verify Service-Webhooks/2.0 deliveries (X-SERVICE-SIGNATURE) in any Node receiver.
// Zero runtime dependencies; framework helpers are typed structurally.
export { sign, verify, verifyOrThrow, SIGNATURE_HEADER, USER_AGENT, DEFAULT_TOLERANCE_MS } from './signature';
export type { RawBody, SignatureHeader, VerifyOptions, VerifyResult } from './signature';
export {
  WebhookRejectedError,
  WebhookVerificationError,
  WebhookPayloadError,
  WebhookConfigurationError,
  RawBodyTooLargeError,
} from './errors';
export type { VerificationFailureReason, WebhookRejectionReason } from './errors';
export { parseEvent, isEventType, isKnownEventType, KNOWN_EVENT_TYPES, PROJECT_EVENT_TYPES, TEAM_EVENT_TYPES } from './events';
export type {
  WebhookEvent,
  WebhookEventOf,
  KnownWebhookEvent,
  UnknownWebhookEvent,
  KnownEventType,
  WebhookEventDataMap,
  GenerationEventData,
  DownloadEventData,
  DownloadCompletedEventData,
  ModelTrainingEventData,
  ModelSummary,
  TeamCreditThresholdCrossedData,
} from './events';
export { verifyEvent, webhookEventOf, signatureHeaderOf } from './receive';
export type { WebhookReceiverOptions, HeaderBag, WithWebhookEvent } from './receive';
export { readRawBody, DEFAULT_BODY_LIMIT_BYTES } from './node-http';
export type { ReadRawBodyOptions } from './node-http';
export { expressWebhookMiddleware } from './express';
export type { ExpressWebhookOptions, ExpressLikeRequest, NodeLikeResponse, NextFunction } from './express';
export { fastifyWebhookPlugin, fastifyWebhookPreHandler, rawBodyContentTypeParser } from './fastify';
export type {
  FastifyWebhookOptions,
  FastifyLikeInstance,
  FastifyLikeRequest,
  FastifyLikeReply,
  ContentTypeParserDone,
} from './fastify';
export { verifyNestRequest, WebhookSignatureGuard } from './nest';
export type { NestLikeRequest, NestVerifyOptions, HttpExecutionContextLike } from './nest';
export { createDeduper } from './dedupe';
export type { Deduper, DeduperOptions, WebhookDedupeStore } from './dedupe';
