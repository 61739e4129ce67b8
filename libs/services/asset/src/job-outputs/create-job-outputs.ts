import { Inject, Injectable, Logger } from '@nestjs/common';
import { JobFailedReported, JobSucceededReported, type JobOutputsProducedData } from '@genasset/contracts';
import { KnownTenants } from '@genasset/identity';
import { InjectOutbox, Outbox } from '@genasset/messaging';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { ASSET_SCHEMA } from '../asset.schema';
import { newAssetId } from '../core/asset-ids';
import { isAssetType, type AssetType } from '../core/asset-types';
import { AssetWriter } from '../core/asset-writer';
import type { Prisma } from '../generated/prisma/client';
import { StoredObjects } from '../objects/stored-objects';
import { JobOutputsRepository } from './job-outputs.repository';
import { describeOutput, renditionKeyOf, UnusableOutput, type DescribedOutput } from './output-object';
import { embeddable } from '../embeddings/image-embedding';

type Tx = Prisma.TransactionClient;

/** Outputs of one job described at once (numSamples defaults to 4, and may be up to 128). */
const DESCRIBE_CONCURRENCY = 4;

/**
 * Makes the assets of a job's outputs (`job.outputs.produced`), then reports
 * the job's success with their ids — both in the consumer's transaction, so
 * job-service completes the job only once its assets exist, and a redelivered
 * fact finds the assets it made the first time (unique job id + output
 * index) and reports the same ids again (job-service ignores the repeat).
 *
 * Outputs that can never become assets (missing object, not an image, a
 * parent deleted since the request, a key outside the job's prefix) fail the
 * job instead, with a reason the client reads, and their objects are queued
 * for deletion.
 */
@Injectable()
export class CreateJobOutputs {
  private readonly logger = new Logger('JobOutputs');

  constructor(
    private readonly writer: AssetWriter,
    private readonly objects: StoredObjects,
    @InjectOutbox(ASSET_SCHEMA.schema) private readonly outbox: Outbox,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly outputs: JobOutputsRepository,
  ) {}

  /** Projects found in identity: one lookup per project, not per job. */
  private readonly knownTenants = new KnownTenants();

  async execute(tx: Tx, data: JobOutputsProducedData): Promise<string[] | undefined> {
    if (!(await this.knownTenants.has(tx, data.tenant.teamId, data.tenant.projectId))) {
      // Deployments (or test runs) sharing a broker: another deployment's job is not ours to report on.
      this.logger.warn(
        `job ${data.jobId}: outputs ignored: project ${data.tenant.projectId} is unknown to this deployment`,
      );
      return undefined;
    }
    try {
      const assetIds = await this.create(tx, data);
      await this.outbox.write(tx, [
        this.outbox.event(JobSucceededReported, { jobId: data.jobId, output: { ...data.extra, assetIds } }),
      ]);
      return assetIds;
    } catch (error) {
      if (!(error instanceof UnusableOutput)) throw error;
      this.logger.warn(`job ${data.jobId}: outputs refused: ${error.message}`);
      await this.refuse(tx, data, error.message);
      return undefined;
    }
  }

  private async create(tx: Tx, data: JobOutputsProducedData): Promise<string[]> {
    const { jobId, tenant } = data;
    const prefix = `jobs/${jobId}/`;
    for (const [i, output] of data.outputs.entries()) {
      if (!output.key.startsWith(prefix))
        throw new UnusableOutput(`output ${i} of the job is not stored under the job's prefix`);
      if (!isAssetType(output.assetType))
        throw new UnusableOutput(`output ${i} of the job has an unknown asset type ${output.assetType}`);
    }
    const parentIds = [...new Set(data.outputs.map((o) => o.parentAssetId).filter((p): p is string => !!p))];
    // One read for both: the job's outputs made by an earlier delivery, and the parents still in the project.
    const rows = await this.outputs.madeOrParents(tx, jobId, tenant.projectId, parentIds);
    // The parents' lineage, read here once: the writer does not read each parent again.
    const found = new Map(rows.filter((a) => a.projectId === tenant.projectId).map((a) => [a.id, { rootParentId: a.rootParentId }]));
    for (const parentId of parentIds) {
      if (!found.has(parentId))
        throw new UnusableOutput(
          `the input asset ${parentId} was deleted before the job's outputs could be stored`,
        );
    }
    // Everything is read and checked before the first row is written, so a refused output
    // never leaves its siblings behind as assets of a failed job.
    const existing = rows.filter((a) => a.jobId === jobId);
    if (existing.some((a) => a.projectId !== tenant.projectId))
      throw new Error(`job ${jobId} has outputs in another project`);
    const made = new Map(existing.map((a) => [a.outputIndex, a.id]));
    const described = await this.describeAll(data, made);
    const runsModel = Boolean(data.modelId);
    const ids: string[] = [];
    for (const [outputIndex, output] of data.outputs.entries()) {
      const id = made.get(outputIndex);
      if (id) {
        ids.push(id);
        continue;
      }
      const content = described.get(outputIndex)!;
      // Not createOnce: the read above, in this transaction, already found no asset for this
      // output; a concurrent copy of the fact loses on the unique (job, output) and is retried.
      const asset = await this.writer.create(tx, {
        id: output.assetId ?? newAssetId(),
        // The job's author; system-made jobs have none, and their outputs name the job instead.
        owner: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: tenant.authorId ?? jobId },
        type: output.assetType as AssetType,
        kind: content.kind,
        mimeType: content.mimeType,
        ...(output.name ? { name: output.name } : {}),
        ...(output.parentAssetId ? { parentId: output.parentAssetId, parentLineage: found.get(output.parentAssetId)! } : {}),
        ...(runsModel ? { inferenceId: jobId, modelId: data.modelId } : {}),
        jobId,
        outputIndex,
        storageKey: output.key,
        ...(content.renditionKey ? { renditionKey: content.renditionKey } : {}),
        // The worker wrote the output and describeOutput its rendition straight to storage: no pending cleanup to cancel.
        pendingCleanup: false,
        properties: content.properties,
        metadata: output.metadata,
        ...(content.embedding ? { embedding: content.embedding } : {}),
      });
      ids.push(asset.id);
    }
    return ids;
  }

  /**
   * Reads and describes the outputs not made yet, `DESCRIBE_CONCURRENCY` at a time: each one's
   * decode, rendition and embedding run in sharp's thread pool and its reads and writes on S3, so a
   * job of four samples (the default) takes about the time of its slowest output instead of the sum
   * of all four, inside the consumer's transaction. A refusal names the first refused output in
   * order, as one after the other would.
   */
  private async describeAll(data: JobOutputsProducedData, made: Map<number | null, string>): Promise<Map<number, DescribedOutput>> {
    const pending = [...data.outputs.entries()].filter(([outputIndex]) => !made.has(outputIndex));
    const described = new Map<number, DescribedOutput>();
    for (let start = 0; start < pending.length; start += DESCRIBE_CONCURRENCY) {
      const group = pending.slice(start, start + DESCRIBE_CONCURRENCY);
      const settled = await Promise.allSettled(
        group.map(([outputIndex, output]) =>
          describeOutput(this.store, output.key, output.mimeType, outputIndex, {
            embed: embeddable({ kind: 'image', type: output.assetType, mimeType: output.mimeType }),
          }),
        ),
      );
      settled.forEach((result, k) => {
        if (result.status === 'rejected') throw result.reason;
        described.set(group[k][0], result.value);
      });
    }
    return described;
  }

  /** Fails the job and queues its output objects (and any renditions made) for deletion. */
  private async refuse(tx: Tx, data: JobOutputsProducedData, reason: string): Promise<void> {
    const keys = data.outputs
      .filter((o) => o.key.startsWith(`jobs/${data.jobId}/`))
      .flatMap((o) => [o.key, renditionKeyOf(o.key)]);
    await this.objects.release(tx, keys);
    await this.outbox.write(tx, [this.outbox.event(JobFailedReported, { jobId: data.jobId, reason })]);
  }
}
