import { Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { announceDueDeliveries, recallHeldDeliveries } from '../deliveries/delivery-wakeup.repository';
import type { WebhookOwner } from '../owners/webhook-owner';
import type { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import type { WebhookEndpointResponse } from './dto/webhook-endpoint.response';
import { presentEndpoint } from './webhook-endpoint.presenter';
import { WebhookEndpointRules } from './webhook-endpoint.rules';
import {
  DuplicateUrlError,
  WebhookEndpointsRepository,
  type EndpointChanges,
} from './webhook-endpoints.repository';

/**
 * Changes any of url, enabledEvents, description, enabled. Pausing keeps
 * pending retries (the workers skip paused endpoints and give back the
 * deliveries of it they hold unstarted, as after a URL change) and makes intake record nothing, so
 * events while paused are never sent; resuming wakes the workers
 * so retries that fell due during the pause go out at once.
 */
@Injectable()
export class UpdateWebhookEndpoint {
  constructor(
    private readonly rules: WebhookEndpointRules,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async execute(
    owner: WebhookOwner,
    id: string,
    input: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointResponse> {
    const current = await this.endpoints.find(owner, id);
    if (!current) throw notFound(id);
    const changes: EndpointChanges = {};
    if (input.enabledEvents !== undefined)
      changes.enabledEvents = this.rules.checkEvents(owner.type, input.enabledEvents);
    if (input.url !== undefined) changes.url = await this.rules.checkUrl(input.url);
    if (input.description !== undefined) changes.description = input.description || null;
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    if (Object.keys(changes).length === 0) return { webhookEndpoint: presentEndpoint(current) };

    const row = await this.endpoints
      .transaction(async (tx) => {
        await this.endpoints.lockOwner(tx, owner);
        const before = await this.endpoints.find(owner, id, tx);
        if (!before) throw notFound(id); // deleted meanwhile
        if (changes.url !== undefined && changes.url !== before.url) {
          const taken = await this.endpoints.findByUrl(tx, owner, changes.url, id);
          if (taken) throw this.rules.duplicateUrl(owner, changes.url, taken.id);
        }
        const updated = await this.endpoints.update(tx, id, changes);
        if (!before.enabled && updated.enabled) await announceDueDeliveries(tx);
        // Workers give back what they hold of it unstarted: nothing more goes out while paused,
        // and nothing more to the former URL (re-claimed, it goes to the new one).
        if ((before.enabled && !updated.enabled) || updated.url !== before.url)
          await recallHeldDeliveries(tx, id);
        return updated;
      })
      .catch((error: unknown) => {
        throw error instanceof DuplicateUrlError ? this.rules.duplicateUrl(owner, changes.url ?? '') : error;
      });
    return { webhookEndpoint: presentEndpoint(row) };
  }
}

export function notFound(id: string): ApiError {
  return ApiError.notFound('Webhook endpoint', id);
}
