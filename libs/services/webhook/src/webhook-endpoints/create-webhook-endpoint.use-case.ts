import { Inject, Injectable } from '@nestjs/common';
import { prefixedId } from '@genasset/contracts';
import { newEndpointSecret } from '../secrets/endpoint-secret';
import { SECRET_BOX, type SecretBox } from '../secrets/secret-box';
import type { WebhookOwner } from '../owners/webhook-owner';
import type { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import type { CreateWebhookEndpointResponse } from './dto/webhook-endpoint.response';
import { presentEndpoint } from './webhook-endpoint.presenter';
import { WebhookEndpointRules } from './webhook-endpoint.rules';
import { DuplicateUrlError, WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** Registers an endpoint; the one response that ever shows its secret. */
@Injectable()
export class CreateWebhookEndpoint {
  constructor(
    private readonly rules: WebhookEndpointRules,
    private readonly endpoints: WebhookEndpointsRepository,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
  ) {}

  async execute(
    owner: WebhookOwner,
    input: CreateWebhookEndpointDto,
  ): Promise<CreateWebhookEndpointResponse> {
    const enabledEvents = this.rules.checkEvents(owner.type, input.enabledEvents);
    // DNS happens here, before the transaction: no lock is held while a resolver is slow.
    const url = await this.rules.checkUrl(input.url);
    const secret = newEndpointSecret();
    const row = await this.endpoints
      .transaction(async (tx) => {
        await this.endpoints.lockOwner(tx, owner);
        const taken = await this.endpoints.findByUrl(tx, owner, url);
        if (taken) throw this.rules.duplicateUrl(owner, url, taken.id);
        this.rules.assertRoomFor(owner, await this.endpoints.count(tx, owner));
        return this.endpoints.create(tx, {
          id: prefixedId('we'),
          owner,
          url,
          enabledEvents,
          description: input.description || undefined,
          secretCiphertext: this.secrets.seal(secret),
        });
      })
      .catch((error: unknown) => {
        throw error instanceof DuplicateUrlError ? this.rules.duplicateUrl(owner, url) : error;
      });
    return { webhookEndpoint: { ...presentEndpoint(row), secret } };
  }
}
