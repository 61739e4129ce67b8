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

/** What a launch runs: a mode of the table, or a workflow run (whose steps are modes, launched as jobs of their own). */
export type LaunchMode = GenerationMode | 'workflow';
/** The job's input: the mode's typed input, or a workflow run's plan. */
export type LaunchInput<M extends LaunchMode> = M extends GenerationMode ? ModeJobInput<M> : Record<string, unknown>;

export interface Launch<M extends LaunchMode> {
  tenant: TenantRef;
  /** The registry mode (or `custom`, or `workflow`): `input.generationMode`, what the executor dispatches on; the job type is the mode table's (`workflow` for a run). */
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

  async launch<M extends LaunchMode>(launch: Launch<M>): Promise<{ job: JobView; input: LaunchInput<M> }> {
    const keys = await this.resolver.put(launch.tenant.projectId, launch.inputs.decoded);
    try {
      const json: Record<string, unknown> = {
        ...launch.body,
        generationMode: launch.generationMode,
        ...launch.extra,
      };
      for (const [path, key] of keys) setAtPath(json, path, key);
      // The body passed the route's validation (the mode table's rules): this is the mode's job input.
      const input = json as LaunchInput<M>;
      const mode: LaunchMode = launch.generationMode;
      const job = await this.jobs.createJob({
        tenant: launch.tenant,
        jobType: mode === 'workflow' ? 'workflow' : MODE_TABLE[mode].jobType,
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
