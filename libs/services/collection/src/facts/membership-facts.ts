import { Injectable } from '@nestjs/common';
import { CollectionDeleted, CollectionMembershipChanged, type TenantRef } from '@genasset/contracts';
import { InjectOutbox, Outbox } from '@genasset/messaging';
import { COLLECTION_SCHEMA } from '../collection.schema';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/**
 * The membership facts owners keep their `collectionIds` from
 * (collection.events.v1), written in the transaction that changed the
 * membership, so a fact exists exactly when the change committed.
 */
@Injectable()
export class MembershipFacts {
  constructor(@InjectOutbox(COLLECTION_SCHEMA.schema) private readonly outbox: Outbox) {}

  changed(
    tx: Tx,
    tenant: TenantRef,
    collectionId: string,
    kind: 'asset' | 'model',
    change: { added?: readonly string[]; removed?: readonly string[] },
  ): Promise<void> {
    return this.outbox.write(tx, [
      this.outbox.event(CollectionMembershipChanged, {
        collectionId,
        teamId: tenant.teamId,
        projectId: tenant.projectId,
        kind,
        added: [...(change.added ?? [])],
        removed: [...(change.removed ?? [])],
      }),
    ]);
  }

  deleted(tx: Tx, tenant: TenantRef, collectionId: string): Promise<void> {
    return this.outbox.write(tx, [
      this.outbox.event(CollectionDeleted, {
        collectionId,
        teamId: tenant.teamId,
        projectId: tenant.projectId,
      }),
    ]);
  }
}
