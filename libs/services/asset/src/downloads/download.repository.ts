import { Injectable } from '@nestjs/common';
import { LeaseTable, type DatabaseConnection } from '@genasset/persistence';
import { AssetPrisma } from '../asset.prisma';
import type { Prisma } from '../generated/prisma/client';
import type { NamedAsset } from './entry-names';

type Tx = Prisma.TransactionClient;

/** NOTIFY channel of new archive work (sent in the transaction that queues it). */
export const DOWNLOADS_CHANNEL = 'assets_downloads';

export interface DownloadOptions {
  fileNameTemplate?: string;
  flat?: boolean;
}

export interface QueuedDownload {
  jobId: string;
  tenant: { teamId: string; projectId: string; authorId?: string };
  assetIds: string[];
  options: DownloadOptions;
}

/** A row as a worker claimed it. */
export interface ClaimedDownload {
  jobId: string;
  teamId: string;
  projectId: string;
  assetIds: string[];
  options: DownloadOptions;
  /** Including this one. */
  attempts: number;
}

/** What the archive needs of one asset. */
export interface ArchiveAsset extends NamedAsset {
  createdAt: Date;
  /** `properties.size` (bytes of the original; 0 when unknown). */
  size: number;
}

/** The queue's leased work (libs/persistence LeaseTable): claimed under the worker's id. */
const DOWNLOADS = LeaseTable.statusQueue('assets.asset_downloads', { column: 'claimed_by', token: 'given' }, 'created_at');

/**
 * The `asset_downloads` work queue. Every state change of a claimed row is
 * conditional on the claim (`claimed_by`, status `running`): a worker whose
 * lease ran out, or whose job was canceled, changes nothing.
 */
@Injectable()
export class DownloadRepository {
  constructor(private readonly prisma: AssetPrisma) {}

  /** An archive's state change and its report (outbox) commit together. */
  transaction<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** In the consumer's transaction: queue the archive once per job (a redelivered request changes nothing). */
  async enqueue(tx: Tx, work: QueuedDownload): Promise<void> {
    await tx.$executeRaw`
      INSERT INTO assets.asset_downloads (job_id, team_id, project_id, author_id, asset_ids, options)
      VALUES (${work.jobId}, ${work.tenant.teamId}, ${work.tenant.projectId}, ${work.tenant.authorId ?? null},
              ${work.assetIds}::text[], ${JSON.stringify(work.options)}::jsonb)
      ON CONFLICT (job_id) DO NOTHING`;
    await tx.$executeRaw`SELECT pg_notify(${DOWNLOADS_CHANNEL}, ${work.jobId})`;
  }

  /** A request the worker cannot run (malformed input): recorded as failed at once. */
  async recordFailed(
    tx: Tx,
    work: Omit<QueuedDownload, 'assetIds' | 'options'>,
    error: string,
  ): Promise<void> {
    await tx.$executeRaw`
      INSERT INTO assets.asset_downloads (job_id, team_id, project_id, author_id, asset_ids, status, error)
      VALUES (${work.jobId}, ${work.tenant.teamId}, ${work.tenant.projectId}, ${work.tenant.authorId ?? null}, '{}', 'failed', ${error})
      ON CONFLICT (job_id) DO NOTHING`;
  }

  /** The job was canceled: a queued archive is never built, a running one stops at its next lease renewal. */
  async cancel(tx: Tx, jobId: string): Promise<void> {
    await tx.$executeRaw`
      UPDATE assets.asset_downloads SET status = 'canceled', claimed_by = NULL, lease_until = NULL, updated_at = now()
       WHERE job_id = ${jobId} AND status IN ('queued', 'running')`;
  }

  /** Claims up to `limit` of the oldest due archives: queued and due, or running under an expired lease (its worker died). */
  async claim(workerId: string, leaseMs: number, limit = 1): Promise<ClaimedDownload[]> {
    const { sql, params } = DOWNLOADS.claim(
      limit,
      leaseMs,
      `job_id AS "jobId", team_id AS "teamId", project_id AS "projectId", asset_ids AS "assetIds", options, attempts`,
      workerId,
    );
    return this.prisma.$queryRawUnsafe<ClaimedDownload[]>(sql, ...params);
  }

  /** Extends the claim; false when it is no longer ours (canceled, or the lease ran out and another worker took it). */
  async renew(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    const { sql, params } = DOWNLOADS.renewal(jobId, workerId, leaseMs);
    return (await this.prisma.$executeRawUnsafe(sql, ...params)) === 1;
  }

  async succeeded(
    tx: Tx,
    jobId: string,
    workerId: string,
    result: { archiveKey: string; size: number; skipped: string[] },
  ): Promise<boolean> {
    const { sql, params } = DOWNLOADS.end(jobId, workerId, {
      set: `status = 'succeeded', archive_key = $3, archive_size = $4::bigint, skipped_asset_ids = $5::text[]`,
      params: [result.archiveKey, result.size, result.skipped],
    });
    return (await tx.$executeRawUnsafe(sql, ...params)) === 1;
  }

  async failed(tx: Tx, jobId: string, workerId: string, error: string): Promise<boolean> {
    const { sql, params } = DOWNLOADS.end(jobId, workerId, { set: `status = 'failed', error = $3`, params: [error] });
    return (await tx.$executeRawUnsafe(sql, ...params)) === 1;
  }

  /** Gives the claim back: due again after `delayMs` (0: at once, e.g. at shutdown, without counting the attempt). */
  async release(jobId: string, workerId: string, delayMs: number, error?: string): Promise<void> {
    const { sql, params } = DOWNLOADS.end(jobId, workerId, {
      set: `status = 'queued', error = $3, available_at = now() + $4::float8 * interval '1 millisecond',
            attempts = CASE WHEN $4::float8 = 0 THEN greatest(attempts - 1, 0) ELSE attempts END`,
      params: [error ?? null, delayMs],
    });
    await this.prisma.$executeRawUnsafe(sql, ...params);
  }

  /**
   * The archive's assets that still exist in the project, in archive order.
   * Ids missing here were deleted after the request.
   */
  async assets(projectId: string, ids: readonly string[]): Promise<ArchiveAsset[]> {
    const rows = await this.prisma.$queryRaw<ArchiveAsset[]>`
      SELECT id, mime_type AS "mimeType", storage_key AS "storageKey", name, inference_id AS "inferenceId",
             model_id AS "modelId", output_index AS "outputIndex", metadata, created_at AS "createdAt",
             CASE WHEN jsonb_typeof(properties->'size') = 'number' THEN (properties->>'size')::float8 ELSE 0 END AS size
        FROM assets.assets WHERE project_id = ${projectId} AND id = ANY(${[...ids]}::text[])`;
    const byId = new Map(
      rows.map((r) => [r.id, { ...r, createdAt: new Date(r.createdAt), metadata: r.metadata ?? {} }]),
    );
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async exists(projectId: string, assetId: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM assets.assets WHERE project_id = ${projectId} AND id = ${assetId}`;
    return rows.length > 0;
  }

  /**
   * Before the archive's first byte is written: its deletion, due when its URL
   * has expired (plus a margin). A crash, a failure or simply time passing
   * all end with the object deleted by the cleanup sweeper.
   */
  async scheduleDeletion(key: string, afterMs: number): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO assets.object_cleanup (object_key, due_at) VALUES (${key}, now() + ${afterMs}::float8 * interval '1 millisecond')`;
  }

  /** Finished rows older than `olderThanMs` (their archives are long gone; the job keeps the outcome). */
  async purge(olderThanMs: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM assets.asset_downloads
       WHERE status IN ('succeeded', 'failed', 'canceled') AND updated_at < now() - ${olderThanMs}::float8 * interval '1 millisecond'`;
  }
}

/** Ends the lease of every running archive now (see reclaimAssetLeases: only where no other worker lives). */
export function reclaimDownloadLeases(db: Pick<DatabaseConnection, 'query'>): Promise<number> {
  return DOWNLOADS.reclaim(db);
}
