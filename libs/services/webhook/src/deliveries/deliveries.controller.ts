import { Controller, Get, Query, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { CurrentOwner, WebhookOwnerRoutes, ownerRoutePrefix } from '../owners/webhook-owner.decorators';
import type { OwnerType, WebhookOwner } from '../owners/webhook-owner';
import { ListDeliveriesQuery } from './dto/list-deliveries.query';
import { WebhookEventListResponse, WebhookEventResponse } from './dto/webhook-event.response';
import { GetDelivery } from './get-delivery.use-case';
import { ListDeliveries } from './list-deliveries.use-case';

/** The delivery log routes of one owner kind, under the same prefix and guard as the endpoint routes. */
function deliveriesController(type: OwnerType): Type<unknown> {
  const name = type === 'project' ? 'Project' : 'Team';

  @ApiTags('webhook-endpoints')
  @WebhookOwnerRoutes(type)
  @ApiErrorResponses(401, 403, 404)
  @Controller(ownerRoutePrefix(type))
  class DeliveriesController {
    constructor(
      private readonly listDeliveries: ListDeliveries,
      private readonly getDelivery: GetDelivery,
    ) {}

    @Get(':webhookEndpointId/events')
    @ApiOperation({
      operationId: `list${name}WebhookEndpointEvents`,
      summary: "List an endpoint's deliveries, newest first (kept 90 days)",
    })
    @ApiOkResponse({ type: WebhookEventListResponse })
    @ApiErrorResponses(400)
    list(
      @CurrentOwner() owner: WebhookOwner,
      @IdParam('webhookEndpointId') endpointId: string,
      @Query() query: ListDeliveriesQuery,
    ) {
      return this.listDeliveries.execute(owner, endpointId, query);
    }

    @Get(':webhookEndpointId/events/:eventId')
    @ApiOperation({
      operationId: `get${name}WebhookEndpointEvent`,
      summary: 'One delivery with its payload and attempts',
    })
    @ApiOkResponse({ type: WebhookEventResponse })
    get(
      @CurrentOwner() owner: WebhookOwner,
      @IdParam('webhookEndpointId') endpointId: string,
      @IdParam('eventId') id: string,
    ) {
      return this.getDelivery.execute(owner, endpointId, id);
    }
  }
  Object.defineProperty(DeliveriesController, 'name', { value: `${name}WebhookDeliveriesController` });
  return DeliveriesController;
}

export const ProjectDeliveriesController = deliveriesController('project');
export const TeamDeliveriesController = deliveriesController('team');
