import { Body, Controller, Get, HttpCode, Post, Query, type Type } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { CurrentOwner, WebhookOwnerRoutes, ownerRoutePrefix } from '../owners/webhook-owner.decorators';
import type { OwnerType, WebhookOwner } from '../owners/webhook-owner';
import { ListDeliveriesQuery } from './dto/list-deliveries.query';
import { RecoverDeliveriesDto, RecoverDeliveriesResponse } from './dto/recover-deliveries.dto';
import { WebhookEventListResponse, WebhookEventResponse } from './dto/webhook-event.response';
import { GetDelivery } from './get-delivery.use-case';
import { ListDeliveries } from './list-deliveries.use-case';
import { RecoverDeliveries } from './recover-deliveries.use-case';
import { ResendDelivery } from './resend-delivery.use-case';

/**
 * The delivery log routes of one owner kind, and the delivery operations (resend, recover: an
 * extension of the spec), under the same prefix and guard as the endpoint routes.
 */
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
      private readonly resendDelivery: ResendDelivery,
      private readonly recoverDeliveries: RecoverDeliveries,
    ) {}

    @Get(':webhookEndpointId/events')
    @ApiOperation({
      operationId: `list${name}WebhookEndpointEvents`,
      summary: "List an endpoint's deliveries, newest first (kept 90 days); filters are an extension",
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

    @Post(':webhookEndpointId/events/:eventId/resend')
    @HttpCode(202)
    @ApiOperation({
      operationId: `resend${name}WebhookEndpointEvent`,
      summary:
        'Resend a final delivery (extension): a new delivery of the same event, same body, signed afresh',
      description:
        'The new record has its own id, status `created`, no attempts and `resendOf` naming the first delivery of the event (the `id` in the body). The original keeps its status. 409 `webhook_endpoint_paused` for a paused endpoint, 409 `webhook_event_pending` while a delivery of the event is created or retrying.',
    })
    @ApiAcceptedResponse({ type: WebhookEventResponse, description: 'The new delivery, queued' })
    @ApiErrorResponses(409)
    resend(
      @CurrentOwner() owner: WebhookOwner,
      @IdParam('webhookEndpointId') endpointId: string,
      @IdParam('eventId') id: string,
    ) {
      return this.resendDelivery.execute(owner, endpointId, id);
    }

    @Post(':webhookEndpointId/recover')
    @HttpCode(202)
    @ApiOperation({
      operationId: `recover${name}WebhookEndpoint`,
      summary: 'Resend every failed delivery created in [since, until) (extension)',
      description:
        'One new delivery per event with a failed delivery in the window, as a resend; an event that already has a pending or successful delivery is skipped, so a second call queues nothing more. 400 naming `since` when it is in the future or older than the retention; 409 `webhook_endpoint_paused` for a paused endpoint.',
    })
    @ApiAcceptedResponse({ type: RecoverDeliveriesResponse, description: 'How many deliveries were queued' })
    @ApiErrorResponses(400, 409)
    recover(
      @CurrentOwner() owner: WebhookOwner,
      @IdParam('webhookEndpointId') endpointId: string,
      @Body() body: RecoverDeliveriesDto,
    ) {
      return this.recoverDeliveries.execute(owner, endpointId, body);
    }
  }
  Object.defineProperty(DeliveriesController, 'name', { value: `${name}WebhookDeliveriesController` });
  return DeliveriesController;
}

export const ProjectDeliveriesController = deliveriesController('project');
export const TeamDeliveriesController = deliveriesController('team');
