import { Injectable } from '@nestjs/common';
import { invalidPageToken } from '@genasset/persistence';
import { AssetPrisma } from '../asset.prisma';
import type { CanvasContent } from '../core/canvas-content';
import { paginationToken } from '../core/pagination-token';
import type { Prisma } from '../generated/prisma/client';

/** A snapshot as the API shows it (upstream `GetCanvasAssetSnapshotsResponse.snapshots[]`). */
export interface SnapshotView {
  /** Unix milliseconds. */
  takenAt: number;
  rawData: string;
  authorId: string;
  hash: string;
}

const ORDER = 'takenAt:desc';

/** Canvas versions, newest first, keyset-paginated on (taken_at, id). */
@Injectable()
export class SnapshotRepository {
  constructor(private readonly prisma: AssetPrisma) {}

  async record(tx: Prisma.TransactionClient, assetId: string, authorId: string, content: CanvasContent): Promise<void> {
    await tx.assetSnapshot.create({ data: { assetId, authorId, rawData: content.raw, hash: content.hash } });
  }

  async page(assetId: string, pageSize: number, token?: string): Promise<{ snapshots: SnapshotView[]; nextPaginationToken?: string }> {
    const cursor = token ? paginationToken.decode(token, ORDER) : undefined;
    if (cursor && !/^\d{1,19}$/.test(cursor.id)) {
      throw invalidPageToken();
    }
    const rows = await this.prisma.assetSnapshot.findMany({
      where: {
        assetId,
        ...(cursor
          ? { OR: [{ takenAt: { lt: new Date(cursor.at) } }, { takenAt: new Date(cursor.at), id: { lt: BigInt(cursor.id) } }] }
          : {}),
      },
      orderBy: [{ takenAt: 'desc' }, { id: 'desc' }],
      take: pageSize + 1,
    });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      snapshots: page.map((r) => ({ takenAt: r.takenAt.getTime(), rawData: r.rawData, authorId: r.authorId, hash: r.hash })),
      ...(rows.length > pageSize && last
        ? { nextPaginationToken: paginationToken.encode({ order: ORDER, at: last.takenAt.toISOString(), id: String(last.id) }) }
        : {}),
    };
  }
}
