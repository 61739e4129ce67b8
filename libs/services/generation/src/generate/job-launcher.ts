import { Inject, Injectable } from '@nestjs/common';
import {
  JOBS_API,
  MODE_TABLE,
  type CreativeUnitsPrice,
  type GenerationMode,
  type JobsApi,
  type JobView,
  type ModeJobInput,
  type TenantRef,
} from '@genasset/contracts';
import { setAtPath } from './inputs/image-inputs';
import { InputResolver, type ResolvedInputs } from './inputs/input-resolver';
import { publicError } from './internal-errors';

export interface Launch<M extends GenerationMode> {
  tenant: TenantRef;
  /** The registry mode (or `custom`): `input.generationMode`, what the executor dispatches on; the job type is the mode table's. */
  generationMode: M;
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

  async launch<M extends GenerationMode>(launch: Launch<M>): Promise<{ job: JobView; input: ModeJobInput<M> }> {
    const keys = await this.resolver.put(launch.tenant.projectId, launch.inputs.decoded);
    try {
      const json: Record<string, unknown> = {
        ...launch.body,
        generationMode: launch.generationMode,
        ...launch.extra,
      };
      for (const [path, key] of keys) setAtPath(json, path, key);
      // The body passed the route's validation (the mode table's rules): this is the mode's job input.
      const input = json as ModeJobInput<M>;
      const job = await this.jobs.createJob({
        tenant: launch.tenant,
        jobType: MODE_TABLE[launch.generationMode].jobType,
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
