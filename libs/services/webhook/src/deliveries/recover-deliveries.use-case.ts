import { Inject, Injectable } from '@nestjs/common';
import { prefixedId } from '@genasset/contracts';
import { ApiError, type FieldError } from '@genasset/http';
import { currentTraceHeaders } from '@genasset/observability';
import type { WebhookOwner } from '../owners/webhook-owner';
import { WEBHOOK_CONFIG, type WebhookConfig } from '../webhook.config';
import { timeWindow } from './delivery-filters';
import { announceDueDeliveries } from './delivery-wakeup.repository';
import type { RecoverDeliveriesDto, RecoverDeliveriesResponse } from './dto/recover-deliveries.dto';
import { endpointPaused } from './redelivery-conflicts';
import { PENDING_STATUSES, RedeliveryRepository, type WalkPosition } from './redelivery.repository';

/** Failed deliveries read (and at most copied) per transaction: short transactions, one statement each way. */
export const RECOVER_BATCH = 500;

/** An event delivered or being delivered needs no recovery. */
const SKIP_IF = [...PENDING_STATUSES, 'success'];

/**
 * Recovers an endpoint (an extension of the spec): resends, as ResendDelivery does, every event
 * with a failed delivery created in [since, until), in batches walked newest first. Idempotent
 * per event: an event that already has a pending or successful delivery (a resend queued by an
 * earlier recovery, say) is skipped, so a second call queues nothing more. Emits no event.
 */
@Injectable()
export class RecoverDeliveries {
  constructor(
    private readonly redeliveries: RedeliveryRepository,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookConfig,
  ) {}

  async execute(
    owner: WebhookOwner,
    endpointId: string,
    input: RecoverDeliveriesDto,
  ): Promise<RecoverDeliveriesResponse> {
    const { since, until } = this.window(input);
    const traceContext = currentTraceHeaders()?.traceparent;
    let position: WalkPosition = { createdAt: until, id: '' };
    let queued = 0;
    for (let batch = 0; ; batch++) {
      const step = await this.redeliveries.transaction(async (tx) => {
        const endpoint = await this.redeliveries.lockEndpoint(tx, owner, endpointId);
        if (!endpoint) throw ApiError.notFound('Webhook endpoint', endpointId);
        // Paused between two batches: what is queued waits for the resume like any pending delivery.
        if (!endpoint.enabled) {
          if (batch === 0) throw endpointPaused(endpointId);
          return undefined;
        }
        const failed = await this.redeliveries.failedBatch(tx, endpointId, since, position, RECOVER_BATCH);
        // One copy per event: the newest of its failed deliveries (they all carry the same body).
        const events = new Map<string, string>();
        for (const f of failed) if (!events.has(f.eventId)) events.set(f.eventId, f.id);
        const copies = [...events.values()].map((sourceId) => ({ id: prefixedId('whevent'), sourceId }));
        const written = await this.redeliveries.copy(tx, endpointId, copies, SKIP_IF, traceContext);
        if (written.length > 0) await announceDueDeliveries(tx, written.length);
        return { written: written.length, failed };
      });
      if (!step) break;
      queued += step.written;
      if (step.failed.length < RECOVER_BATCH) break;
      const last = step.failed[step.failed.length - 1];
      position = { createdAt: last.createdAt, id: last.id };
    }
    return { queued };
  }

  /** [since, until): since within the retention and not in the future; until after since (default now). */
  private window(input: RecoverDeliveriesDto): { since: Date; until: Date } {
    const errors: FieldError[] = [];
    const now = Date.now();
    const { from, to } = timeWindow(
      { name: 'since', value: input.since },
      { name: 'until', value: input.until },
      errors,
    );
    if (from && from.getTime() > now)
      errors.push({ field: 'since', messages: ['since must not be in the future'] });
    const earliest = now - this.config.WEBHOOK_RETENTION;
    if (from && from.getTime() < earliest) {
      const days = Number((this.config.WEBHOOK_RETENTION / 86_400_000).toFixed(2));
      errors.push({
        field: 'since',
        messages: [
          `since must be at or after ${new Date(earliest).toISOString()}: deliveries are kept ${days} days (the delivery log retention)`,
        ],
      });
    }
    if (errors.length > 0 || !from) throw ApiError.validation(errors);
    return { since: from, until: to ?? new Date(now) };
  }
}
