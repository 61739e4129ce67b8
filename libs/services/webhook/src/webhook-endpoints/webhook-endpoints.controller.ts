import { Body, Controller, Delete, Get, HttpCode, Post, Put, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { CurrentOwner, WebhookOwnerRoutes, ownerRoutePrefix } from '../owners/webhook-owner.decorators';
import type { OwnerType, WebhookOwner } from '../owners/webhook-owner';
import { CreateWebhookEndpoint } from './create-webhook-endpoint.use-case';
import { DeleteWebhookEndpoint } from './delete-webhook-endpoint.use-case';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import {
  CreateWebhookEndpointResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
} from './dto/webhook-endpoint.response';
import { ListWebhookEndpoints } from './list-webhook-endpoints.use-case';
import { UpdateWebhookEndpoint } from './update-webhook-endpoint.use-case';

/**
 * The management routes, identical for both owner kinds (spec: "Routes exist
 * for projects … and identically for teams"): one implementation, mounted
 * twice. Only the guard differs — project admins, or team admins and keys
 * with `team.webhooks.manage`.
 */
function webhookEndpointsController(type: OwnerType): Type<unknown> {
  const who =
    type === 'project' ? 'project admins' : 'team admins or API keys with the scope team.webhooks.manage';

  @ApiTags('webhook-endpoints')
  @WebhookOwnerRoutes(type)
  @ApiErrorResponses(401, 403, 404)
  @Controller(ownerRoutePrefix(type))
  class WebhookEndpointsController {
    constructor(
      private readonly createEndpoint: CreateWebhookEndpoint,
      private readonly listEndpoints: ListWebhookEndpoints,
      private readonly updateEndpoint: UpdateWebhookEndpoint,
      private readonly deleteEndpoint: DeleteWebhookEndpoint,
    ) {}

    @Post()
    @HttpCode(200)
    @ApiOperation({
      operationId: `create${title(type)}WebhookEndpoint`,
      summary: `Create a ${type} webhook endpoint (${who})`,
    })
    @ApiOkResponse({
      type: CreateWebhookEndpointResponse,
      description: 'The endpoint, with its secret: the only time it is shown',
    })
    @ApiErrorResponses(400, 409, 422)
    create(@CurrentOwner() owner: WebhookOwner, @Body() body: CreateWebhookEndpointDto) {
      return this.createEndpoint.execute(owner, body);
    }

    @Get()
    @ApiOperation({
      operationId: `list${title(type)}WebhookEndpoints`,
      summary: `List the ${type}'s webhook endpoints (${who})`,
    })
    @ApiOkResponse({ type: WebhookEndpointListResponse })
    list(@CurrentOwner() owner: WebhookOwner) {
      return this.listEndpoints.execute(owner);
    }

    @Put(':webhookEndpointId')
    @ApiOperation({
      operationId: `update${title(type)}WebhookEndpoint`,
      summary: `Update a ${type} webhook endpoint; enabled: false pauses it`,
    })
    @ApiOkResponse({ type: WebhookEndpointResponse })
    @ApiErrorResponses(400, 409, 422)
    update(
      @CurrentOwner() owner: WebhookOwner,
      @IdParam('webhookEndpointId') id: string,
      @Body() body: UpdateWebhookEndpointDto,
    ) {
      return this.updateEndpoint.execute(owner, id, body);
    }

    @Delete(':webhookEndpointId')
    @ApiOperation({
      operationId: `delete${title(type)}WebhookEndpoint`,
      summary: `Delete a ${type} webhook endpoint with its delivery log`,
    })
    @ApiOkResponse({ description: 'Deleted: an empty object', schema: { type: 'object', properties: {} } })
    delete(@CurrentOwner() owner: WebhookOwner, @IdParam('webhookEndpointId') id: string) {
      return this.deleteEndpoint.execute(owner, id);
    }
  }
  // Distinct class names keep Nest's and the OpenAPI document's identifiers unique.
  Object.defineProperty(WebhookEndpointsController, 'name', {
    value: `${title(type)}WebhookEndpointsController`,
  });
  return WebhookEndpointsController;
}

function title(type: OwnerType): string {
  return type === 'project' ? 'Project' : 'Team';
}

export const ProjectWebhookEndpointsController = webhookEndpointsController('project');
export const TeamWebhookEndpointsController = webhookEndpointsController('team');
