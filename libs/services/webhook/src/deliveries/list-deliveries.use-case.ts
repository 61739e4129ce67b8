import { Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import type { WebhookOwner } from '../owners/webhook-owner';
import { DeliveriesRepository } from './deliveries.repository';
import { DEFAULT_PAGE_SIZE, type ListDeliveriesQuery } from './dto/list-deliveries.query';
import type { WebhookEventListResponse } from './dto/webhook-event.response';
import { decodeCursor, encodeCursor } from './pagination-token';
import { presentDelivery } from './webhook-event.presenter';

/** An endpoint's delivery log, newest first, with payloads and attempts (as upstream's list items carry them). */
@Injectable()
export class ListDeliveries {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  async execute(
    owner: WebhookOwner,
    endpointId: string,
    query: ListDeliveriesQuery,
  ): Promise<WebhookEventListResponse> {
    const after = query.paginationToken === undefined ? undefined : decodeCursor(query.paginationToken);
    if (query.paginationToken !== undefined && !after) {
      throw ApiError.validation([
        { field: 'paginationToken', messages: ['paginationToken is not a token this API issued'] },
      ]);
    }
    if (!(await this.deliveries.endpointExists(owner, endpointId)))
      throw ApiError.notFound('Webhook endpoint', endpointId);
    const size = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const rows = await this.deliveries.page(endpointId, after, size);
    const items = rows.slice(0, size);
    const last = items[items.length - 1];
    return {
      items: items.map(presentDelivery),
      ...(rows.length > size ? { nextPaginationToken: encodeCursor(last) } : {}),
    };
  }
}
