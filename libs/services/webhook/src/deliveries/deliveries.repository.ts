import { Injectable } from '@nestjs/common';
import type { WebhookDelivery } from '../generated/prisma/client';
import type { WebhookOwner } from '../owners/webhook-owner';
import { WebhookPrisma } from '../webhook.prisma';
import type { DeliveryCursor } from './pagination-token';

/** Read side of the delivery log. Every read is scoped to an endpoint of the caller's owner. */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly prisma: WebhookPrisma) {}

  async endpointExists(owner: WebhookOwner, endpointId: string): Promise<boolean> {
    const found = await this.prisma.webhookEndpoint.findFirst({
      where: { id: endpointId, ownerType: owner.type, ownerId: owner.id },
      select: { id: true },
    });
    return found !== null;
  }

  /** One page newest first, plus one row to tell whether another page follows (index: endpoint_id, created_at desc, id desc). */
  page(endpointId: string, after: DeliveryCursor | undefined, size: number): Promise<WebhookDelivery[]> {
    return this.prisma.webhookDelivery.findMany({
      where: {
        endpointId,
        ...(after
          ? {
              OR: [
                { createdAt: { lt: after.createdAt } },
                { createdAt: after.createdAt, id: { lt: after.id } },
              ],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: size + 1,
    });
  }

  find(owner: WebhookOwner, endpointId: string, id: string): Promise<WebhookDelivery | null> {
    return this.prisma.webhookDelivery.findFirst({
      where: { id, endpointId, endpoint: { ownerType: owner.type, ownerId: owner.id } },
    });
  }
}
