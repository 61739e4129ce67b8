import { Injectable } from '@nestjs/common';
import type { WebhookOwner } from '../owners/webhook-owner';
import type { WebhookEndpointListResponse } from './dto/webhook-endpoint.response';
import { presentEndpoint } from './webhook-endpoint.presenter';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** Every endpoint of the owner, oldest first: bounded by the per-owner limit, so one page. */
@Injectable()
export class ListWebhookEndpoints {
  constructor(private readonly endpoints: WebhookEndpointsRepository) {}

  async execute(owner: WebhookOwner): Promise<WebhookEndpointListResponse> {
    return { webhookEndpoints: (await this.endpoints.list(owner)).map(presentEndpoint) };
  }
}
