import { WebhookPayloadError } from './errors';
import type { RawBody } from './signature';

// `data` shapes from the spec's "Payload shapes" table. Payloads are extensible: the
// service may add fields and event types at any time, so receivers ignore what they
// do not know. Only the envelope is checked at runtime; the signature vouches for the rest.

/** `generation.*` */
export interface GenerationEventData {
  /** Prefix `job_`. */
  jobId: string;
  jobType: string;
  /** Present only when the job ran a model. */
  modelId?: string;
}

/** `asset.download.created|failed`, `model.download.created|failed` */
export interface DownloadEventData {
  jobId: string;
}

/** `asset.download.completed`, `model.download.completed` */
export interface DownloadCompletedEventData extends DownloadEventData {
  /** A signed CDN URL. */
  downloadUrl: string;
}

/** The model in summary form; the spec does not list its fields. */
export type ModelSummary = Record<string, unknown>;

/** `model.training.*` */
export interface ModelTrainingEventData {
  model: ModelSummary;
}

/** `team.credit.threshold.crossed` */
export interface TeamCreditThresholdCrossedData {
  teamId: string;
  /** `percent`: `thresholdValue` is a percentage of the period's credit units; `absolute`: a number of remaining units. */
  thresholdUnit: 'percent' | 'absolute';
  thresholdValue: number;
  remainingCreativeUnits: number;
  totalPeriodCreativeUnits: number;
}

/** Event type → its `data`. */
export interface WebhookEventDataMap {
  'generation.created': GenerationEventData;
  'generation.completed': GenerationEventData;
  'generation.failed': GenerationEventData;
  'asset.download.created': DownloadEventData;
  'asset.download.completed': DownloadCompletedEventData;
  'asset.download.failed': DownloadEventData;
  'model.download.created': DownloadEventData;
  'model.download.completed': DownloadCompletedEventData;
  'model.download.failed': DownloadEventData;
  'model.training.started': ModelTrainingEventData;
  'model.training.completed': ModelTrainingEventData;
  'model.training.failed': ModelTrainingEventData;
  'model.training.cancelled': ModelTrainingEventData;
  'team.credit.threshold.crossed': TeamCreditThresholdCrossedData;
}

export type KnownEventType = keyof WebhookEventDataMap;

/** Project event types (spec: Project event types), in the spec's order. */
export const PROJECT_EVENT_TYPES = [
  'generation.created',
  'generation.completed',
  'generation.failed',
  'asset.download.created',
  'asset.download.completed',
  'asset.download.failed',
  'model.download.created',
  'model.download.completed',
  'model.download.failed',
  'model.training.started',
  'model.training.completed',
  'model.training.failed',
  'model.training.cancelled',
] as const satisfies readonly KnownEventType[];

/** Team event types (spec: Team event type). */
export const TEAM_EVENT_TYPES = [
  'team.credit.threshold.crossed',
] as const satisfies readonly KnownEventType[];

export const KNOWN_EVENT_TYPES: readonly KnownEventType[] = [...PROJECT_EVENT_TYPES, ...TEAM_EVENT_TYPES];

type EventBody<T extends KnownEventType> = {
  /** Prefix `whevent_`; unchanged across retries: deduplicate on it. */
  id: string;
  type: T;
  data: WebhookEventDataMap[T];
} & (T extends 'team.credit.threshold.crossed' ? { version: number } : { version?: number });

/** Any event of a known type, discriminated by `type`. */
export type KnownWebhookEvent = { [T in KnownEventType]: EventBody<T> }[KnownEventType];

/** The delivered body of one (or several) known event types. The team credit event carries `version` (currently 1). */
export type WebhookEventOf<T extends KnownEventType> = Extract<KnownWebhookEvent, { type: T }>;

/** An event type this library does not know yet. */
export interface UnknownWebhookEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  version?: number;
}

/**
 * Any delivered event. Narrow it with `isEventType()`: because unknown types are allowed,
 * a `switch (event.type)` alone cannot narrow `data`.
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

const known = new Set<string>(KNOWN_EVENT_TYPES);

export function isKnownEventType(type: string): type is KnownEventType {
  return known.has(type);
}

/** Narrows an event to one (or several) known types: `if (isEventType(e, 'generation.completed')) e.data.jobId`. */
export function isEventType<T extends KnownEventType>(
  event: WebhookEvent,
  ...types: T[]
): event is WebhookEventOf<T> {
  return (types as string[]).includes(event.type);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses a raw body into an event, checking the envelope `{ id, type, data, version? }`.
 * Call it after `verify()`: never act on an unverified body. Throws `WebhookPayloadError`.
 */
export function parseEvent(rawBody: RawBody): WebhookEvent {
  const text =
    typeof rawBody === 'string'
      ? rawBody
      : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WebhookPayloadError('the body is not JSON');
  }
  if (!isObject(value)) throw new WebhookPayloadError('the body is not a JSON object');
  if (typeof value.id !== 'string' || value.id === '')
    throw new WebhookPayloadError('`id` is not a non-empty string');
  if (typeof value.type !== 'string' || value.type === '')
    throw new WebhookPayloadError('`type` is not a non-empty string');
  if (!isObject(value.data)) throw new WebhookPayloadError('`data` is not an object');
  if (value.version !== undefined && !Number.isInteger(value.version))
    throw new WebhookPayloadError('`version` is not an integer');
  return value as unknown as WebhookEvent;
}
