import { HttpStatus } from '@nestjs/common';
import { ApiError } from '@genasset/http';

/**
 * 409s of the delivery operations, each with a code of its own so a client (the console) can say
 * why. A paused endpoint gets nothing (spec: pausing stops deliveries), so it is refused, not
 * queued for after the resume.
 */
export function endpointPaused(endpointId: string): ApiError {
  return new ApiError(
    HttpStatus.CONFLICT,
    'webhook_endpoint_paused',
    'The webhook endpoint is paused (enabled: false): nothing is sent to it. Resume it first',
    { webhookEndpointId: endpointId },
  );
}

/** The event already has a delivery to be attempted: the delivery itself, or an earlier resend. */
export function eventPending(eventId: string, pendingId: string): ApiError {
  return new ApiError(
    HttpStatus.CONFLICT,
    'webhook_event_pending',
    `A delivery of this event is still pending (created or retrying): ${pendingId}. Resend it once it is final (success or failed)`,
    { eventId, pendingWebhookEventId: pendingId },
  );
}
