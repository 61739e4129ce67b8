import { Module } from '@nestjs/common';
import { WebhookCoreModule } from '../webhook-core.module';
import { CreateWebhookEndpoint } from './create-webhook-endpoint.use-case';
import { DeleteWebhookEndpoint } from './delete-webhook-endpoint.use-case';
import { ListWebhookEndpoints } from './list-webhook-endpoints.use-case';
import { UpdateWebhookEndpoint } from './update-webhook-endpoint.use-case';
import { WebhookEndpointRules } from './webhook-endpoint.rules';
import {
  ProjectWebhookEndpointsController,
  TeamWebhookEndpointsController,
} from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** `/v1/{projects|teams}/{id}/webhook-endpoints`: create, list, update, delete. */
@Module({
  imports: [WebhookCoreModule],
  controllers: [ProjectWebhookEndpointsController, TeamWebhookEndpointsController],
  providers: [
    WebhookEndpointsRepository,
    WebhookEndpointRules,
    CreateWebhookEndpoint,
    ListWebhookEndpoints,
    UpdateWebhookEndpoint,
    DeleteWebhookEndpoint,
  ],
})
export class WebhookEndpointsModule {}
