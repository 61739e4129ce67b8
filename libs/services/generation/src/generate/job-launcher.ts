import { Inject, Injectable } from '@nestjs/common';
import {
  JOBS_API,
  type CreativeUnitsPrice,
  type JobsApi,
  type JobType,
  type JobView,
  type TenantRef,
} from '@genasset/contracts';
import { setAtPath } from './inputs/image-inputs';
import { InputResolver, type ResolvedInputs } from './inputs/input-resolver';
import { publicError } from './internal-errors';

export interface Launch {
  tenant: TenantRef;
  jobType: JobType;
  /** The registry mode (or `custom`): `input.generationMode`, what the executor dispatches on. */
  generationMode: string;
  /** The validated body as plain JSON, owned by the launch: its data URLs are replaced by their keys. */
  body: Record<string, unknown>;
  inputs: ResolvedInputs;
  price: CreativeUnitsPrice;
  modelId?: string;
  /** Makes a repeated launch return the first job (job-service's idempotency key). */
  idempotencyKey?: string;
  /** Extra executor fields (outputAssetId). */
  extra?: Record<string, unknown>;
}

/**
 * Starts a generation: stores the data-URL inputs (claim check), then asks
 * job-service to create and charge the job in one transaction (it publishes
 * job.created and job.work.requested with it). If the job is refused
 * (insufficient credits: 402) or anything fails, the stored inputs are
 * removed again: a refused request leaves nothing behind.
 */
@Injectable()
export class JobLauncher {
  constructor(
    @Inject(JOBS_API) private readonly jobs: JobsApi,
    private readonly resolver: InputResolver,
  ) {}

  async launch(launch: Launch): Promise<{ job: JobView; input: Record<string, unknown> }> {
    const keys = await this.resolver.put(launch.tenant.projectId, launch.inputs.decoded);
    try {
      const input: Record<string, unknown> = {
        ...launch.body,
        generationMode: launch.generationMode,
        ...launch.extra,
      };
      for (const [path, key] of keys) setAtPath(input, path, key);
      const job = await this.jobs.createJob({
        tenant: launch.tenant,
        jobType: launch.jobType,
        kind: 'generation',
        input,
        ...(launch.modelId ? { modelId: launch.modelId } : {}),
        creativeUnitsCost: launch.price.creativeUnitsCost,
        ...(launch.idempotencyKey ? { idempotencyKey: launch.idempotencyKey } : {}),
      });
      return { job, input };
    } catch (error) {
      await this.resolver.discard([...keys.values()]);
      throw publicError(error);
    }
  }
}
