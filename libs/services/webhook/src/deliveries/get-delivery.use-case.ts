import { Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import type { WebhookOwner } from '../owners/webhook-owner';
import { DeliveriesRepository } from './deliveries.repository';
import type { WebhookEventResponse } from './dto/webhook-event.response';
import { presentDelivery } from './webhook-event.presenter';

/** One delivery with its payload and attempts; another owner's endpoint or delivery is not found. */
@Injectable()
export class GetDelivery {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  async execute(owner: WebhookOwner, endpointId: string, id: string): Promise<WebhookEventResponse> {
    const row = await this.deliveries.find(owner, endpointId, id);
    if (row) return { webhookEvent: presentDelivery(row) };
    if (!(await this.deliveries.endpointExists(owner, endpointId)))
      throw ApiError.notFound('Webhook endpoint', endpointId);
    throw ApiError.notFound('Webhook event', id);
  }
}
