import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@genasset/http';
import { checkSubscription, type SubscriptionProblem } from '../event-catalog';
import type { OwnerType, WebhookOwner } from '../owners/webhook-owner';
import { checkWebhookUrl } from '../url-policy';
import { WEBHOOK_CONFIG, type WebhookConfig } from '../webhook.config';

/**
 * Endpoints per owner. Teams: the spec's limit. Projects: the spec sets none;
 * we cap them too, generously, because every project event is fanned out to
 * each of its endpoints (docs/webhooks.md).
 */
export const ENDPOINT_LIMITS: Readonly<Record<OwnerType, number>> = { team: 10, project: 100 };

/** The spec's rules on an endpoint's URL, subscription and count, as API errors. */
@Injectable()
export class WebhookEndpointRules {
  constructor(@Inject(WEBHOOK_CONFIG) private readonly config: WebhookConfig) {}

  /**
   * Absolute http(s), https unless WEBHOOK_ALLOW_HTTP, no private, loopback,
   * link-local or metadata target unless WEBHOOK_ALLOW_PRIVATE_TARGETS (the
   * workers check again at connect time). Returns the URL in normalised form
   * (WHATWG: lower-case scheme and host, default port dropped), which is what
   * is stored, shown and compared for duplicates.
   */
  async checkUrl(raw: string): Promise<string> {
    const check = await checkWebhookUrl(raw, {
      allowHttp: this.config.WEBHOOK_ALLOW_HTTP,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    });
    if (!check.ok)
      throw ApiError.validation([{ field: 'url', messages: [`url is refused: ${check.reason}`] }]);
    return check.url.href;
  }

  /** The subscription to store: 400 for empty, unknown or `*` combined; 422 for the other owner kind's types. */
  checkEvents(ownerType: OwnerType, requested: readonly string[]): string[] {
    const check = checkSubscription(ownerType, requested);
    if (check.ok) return check.events;
    throw subscriptionError(ownerType, check.problem);
  }

  /** Call with the owner locked (repository.lockOwner), so the count cannot change before the insert. */
  assertRoomFor(owner: WebhookOwner, existing: number): void {
    const limit = ENDPOINT_LIMITS[owner.type];
    if (existing >= limit) {
      throw new ApiError(
        400,
        'webhook_endpoint_limit',
        `A ${owner.type} can have at most ${limit} webhook endpoints`,
        { limit },
      );
    }
  }

  duplicateUrl(owner: WebhookOwner, url: string, existingId?: string): ApiError {
    return ApiError.conflict(`This URL is already registered as a webhook endpoint of this ${owner.type}`, {
      url,
      ...(existingId ? { webhookEndpointId: existingId } : {}),
    });
  }
}

function subscriptionError(ownerType: OwnerType, problem: SubscriptionProblem): ApiError {
  const field = (message: string) => ApiError.validation([{ field: 'enabledEvents', messages: [message] }]);
  switch (problem.kind) {
    case 'empty':
      return field('enabledEvents should not be empty');
    case 'unknown':
      return field(`enabledEvents contains unknown event types: ${problem.types.join(', ')}`);
    case 'wildcard-combined':
      return field('enabledEvents: "*" already means every event and cannot be combined with event types');
    case 'wrong-owner': {
      const other = ownerType === 'project' ? 'team' : 'project';
      return ApiError.unprocessable(
        `A ${ownerType} endpoint cannot subscribe to ${other} events: ${problem.types.join(', ')}`,
        { fields: { enabledEvents: [`${other} events are not allowed on a ${ownerType} endpoint`] } },
      );
    }
  }
}
