import { Injectable } from '@nestjs/common';
import { recallHeldDeliveries } from '../deliveries/delivery-wakeup.repository';
import { Prisma, type WebhookEndpoint } from '../generated/prisma/client';
import type { WebhookOwner } from '../owners/webhook-owner';
import { WebhookPrisma, type WebhookTx } from '../webhook.prisma';

/** The unique index (owner_type, owner_id, url) refused a write: the URL is taken on this owner. */
export class DuplicateUrlError extends Error {
  constructor() {
    super('webhook endpoint URL already registered on this owner');
  }
}

export interface NewEndpoint {
  id: string;
  owner: WebhookOwner;
  url: string;
  enabledEvents: string[];
  description?: string;
  secretCiphertext: string;
}

export interface EndpointChanges {
  url?: string;
  enabledEvents?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** Endpoint rows of one owner. Every lookup is scoped by owner: another owner's id is simply not found. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly prisma: WebhookPrisma) {}

  transaction<T>(fn: (tx: WebhookTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /**
   * Serialises writers of one owner until the transaction ends, so "count,
   * then insert" cannot let two concurrent creations both pass the limit.
   * Transaction-scoped: released at commit or rollback, even if we crash.
   */
  async lockOwner(tx: WebhookTx, owner: WebhookOwner): Promise<void> {
    await tx.$executeRawUnsafe(
      'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
      `webhook-owner:${owner.type}:${owner.id}`,
    );
  }

  count(tx: WebhookTx, owner: WebhookOwner): Promise<number> {
    return tx.webhookEndpoint.count({ where: { ownerType: owner.type, ownerId: owner.id } });
  }

  /** The endpoint of `owner` already holding `url`, other than `exceptId`. */
  findByUrl(
    tx: WebhookTx,
    owner: WebhookOwner,
    url: string,
    exceptId?: string,
  ): Promise<WebhookEndpoint | null> {
    return tx.webhookEndpoint.findFirst({
      where: {
        ownerType: owner.type,
        ownerId: owner.id,
        url,
        ...(exceptId ? { id: { not: exceptId } } : {}),
      },
    });
  }

  find(owner: WebhookOwner, id: string, tx: WebhookTx = this.prisma): Promise<WebhookEndpoint | null> {
    return tx.webhookEndpoint.findFirst({ where: { id, ownerType: owner.type, ownerId: owner.id } });
  }

  list(owner: WebhookOwner): Promise<WebhookEndpoint[]> {
    return this.prisma.webhookEndpoint.findMany({
      where: { ownerType: owner.type, ownerId: owner.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async create(tx: WebhookTx, endpoint: NewEndpoint): Promise<WebhookEndpoint> {
    return uniqueUrl(() =>
      tx.webhookEndpoint.create({
        data: {
          id: endpoint.id,
          ownerType: endpoint.owner.type,
          ownerId: endpoint.owner.id,
          teamId: endpoint.owner.teamId,
          url: endpoint.url,
          enabledEvents: endpoint.enabledEvents,
          description: endpoint.description,
          secretCiphertext: endpoint.secretCiphertext,
        },
      }),
    );
  }

  async update(tx: WebhookTx, id: string, changes: EndpointChanges): Promise<WebhookEndpoint> {
    return uniqueUrl(() =>
      tx.webhookEndpoint.update({ where: { id }, data: { ...changes, updatedAt: new Date() } }),
    );
  }

  /**
   * Its deliveries and their attempts go with it (ON DELETE CASCADE), and the
   * workers are told to drop what they hold of it unstarted. False when
   * `owner` has no such endpoint.
   */
  async delete(owner: WebhookOwner, id: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.webhookEndpoint.deleteMany({
        where: { id, ownerType: owner.type, ownerId: owner.id },
      });
      if (count > 0) await recallHeldDeliveries(tx, id);
      return count > 0;
    });
  }
}

/** The owner lock makes duplicates impossible among our own writers; the index is the last word for anyone else. */
async function uniqueUrl<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
      throw new DuplicateUrlError();
    throw error;
  }
}
