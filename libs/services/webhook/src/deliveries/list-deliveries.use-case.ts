import { Injectable } from '@nestjs/common';
import { ApiError, type FieldError } from '@genasset/http';
import { EVENT_TYPES_BY_OWNER } from '../event-catalog';
import type { WebhookOwner } from '../owners/webhook-owner';
import { DeliveriesRepository } from './deliveries.repository';
import { filtersDigest, timeWindow, type DeliveryFilters } from './delivery-filters';
import { DEFAULT_PAGE_SIZE, type ListDeliveriesQuery } from './dto/list-deliveries.query';
import type { WebhookEventListResponse } from './dto/webhook-event.response';
import { decodeCursor, encodeCursor } from './pagination-token';
import { presentDelivery } from './webhook-event.presenter';

/**
 * An endpoint's delivery log, newest first, with payloads and attempts (as upstream's list items
 * carry them), optionally filtered by status, event type and creation window (an extension).
 */
@Injectable()
export class ListDeliveries {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  async execute(
    owner: WebhookOwner,
    endpointId: string,
    query: ListDeliveriesQuery,
  ): Promise<WebhookEventListResponse> {
    const errors: FieldError[] = [];
    const filters: DeliveryFilters = {
      status: query.status,
      type: query.type,
      ...timeWindow(
        { name: 'createdAfter', value: query.createdAfter },
        { name: 'createdBefore', value: query.createdBefore },
        errors,
      ),
    };
    if (
      query.type !== undefined &&
      !(EVENT_TYPES_BY_OWNER[owner.type] as readonly string[]).includes(query.type)
    )
      errors.push({
        field: 'type',
        messages: [`type ${query.type} is not an event type of ${owner.type} endpoints`],
      });
    const digest = filtersDigest(filters);
    const after = query.paginationToken === undefined ? undefined : decodeCursor(query.paginationToken);
    if (query.paginationToken !== undefined && !after)
      errors.push({ field: 'paginationToken', messages: ['paginationToken is not a token this API issued'] });
    else if (after && after.filters !== digest)
      errors.push({
        field: 'paginationToken',
        messages: [
          'paginationToken was issued for other filters: send the filters of the page that issued it',
        ],
      });
    if (errors.length > 0) throw ApiError.validation(errors);

    if (!(await this.deliveries.endpointExists(owner, endpointId)))
      throw ApiError.notFound('Webhook endpoint', endpointId);
    const size = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const rows = await this.deliveries.page(endpointId, filters, after, size);
    const items = rows.slice(0, size);
    const last = items[items.length - 1];
    return {
      items: items.map(presentDelivery),
      ...(rows.length > size
        ? { nextPaginationToken: encodeCursor({ createdAt: last.createdAt, id: last.id, filters: digest }) }
        : {}),
    };
  }
}
