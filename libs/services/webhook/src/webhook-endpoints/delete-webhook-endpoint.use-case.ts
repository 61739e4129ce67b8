import { Injectable } from '@nestjs/common';
import type { WebhookOwner } from '../owners/webhook-owner';
import { notFound } from './update-webhook-endpoint.use-case';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/**
 * Removes an endpoint with its whole delivery log (ON DELETE CASCADE):
 * pending retries are deleted with it, so nothing more is sent. An attempt
 * already in flight finds its delivery gone when it records the outcome.
 */
@Injectable()
export class DeleteWebhookEndpoint {
  constructor(private readonly endpoints: WebhookEndpointsRepository) {}

  async execute(owner: WebhookOwner, id: string): Promise<Record<string, never>> {
    if (!(await this.endpoints.delete(owner, id))) throw notFound(id);
    return {};
  }
}
