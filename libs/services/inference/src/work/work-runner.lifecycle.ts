import { errorMessage } from '@genasset/contracts';
import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { parseDuration, PROCESS_ENV } from '@genasset/config';
import { ReadinessRegistry } from '@genasset/http';
import { IdentityService } from '@genasset/identity';
import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { ALL_ROUTES } from '../engines/create-engines';
import { TRAINER_SETTINGS } from '../engines/training/colour-trainer';
import { EngineRegistry } from '../engines/engine-registry';
import { INFERENCE_CONFIG, type InferenceConfig } from '../inference.config';
import { InputReader } from './input-reader';
import { JobReporter } from './job-reporter';
import { WorkQueueRepository } from './work-queue.repository';
import { JobExecution } from './job-execution';
import { WorkRunner } from './work-runner';

/** Runs this process's worker loop from application bootstrap to shutdown (before the database closes). */
@Injectable()
export class WorkRunnerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly runner: WorkRunner;
  private readonly logger = new Logger('InferenceWorker');

  constructor(
    queue: WorkQueueRepository,
    reporter: JobReporter,
    private readonly registry: EngineRegistry,
    inputs: InputReader,
    @Inject(OBJECT_STORE) store: ObjectStore,
    @Inject(INFERENCE_CONFIG) config: InferenceConfig,
    @Inject(PROCESS_ENV) env: NodeJS.ProcessEnv,
    identity: IdentityService,
    @Optional() @Inject(DATABASE_CONNECTION) db?: DatabaseConnection,
    @Optional() private readonly readiness?: ReadinessRegistry,
  ) {
    TRAINER_SETTINGS.stepDelayMs = config.INFERENCE_TRAINER_STEP_DELAY;
    const grace = parseDuration(env.SHUTDOWN_GRACE ?? '25s') ?? 25_000;
    const settings = {
      concurrency: config.INFERENCE_CONCURRENCY,
      pollIntervalMs: config.INFERENCE_POLL_INTERVAL,
      leaseMs: config.INFERENCE_LEASE,
      maxAttempts: config.INFERENCE_MAX_ATTEMPTS,
      retryDelayMs: config.INFERENCE_RETRY_DELAY,
      retentionMs: config.INFERENCE_RETENTION,
      progressIntervalMs: config.INFERENCE_PROGRESS_INTERVAL,
      drainTimeoutMs: Math.floor(grace * 0.6),
    };
    // A project's team never changes, so a project found once stays known: one lookup per
    // project rather than per job (unknown ones are asked again: they may be created later).
    const known = new Set<string>();
    const tenantKnown = async (teamId: string, projectId: string) => {
      const key = `${teamId}/${projectId}`;
      if (known.has(key)) return true;
      if ((await identity.teamOfProject(projectId)) !== teamId) return false;
      if (known.size >= 10_000) known.clear();
      known.add(key);
      return true;
    };
    this.runner = new WorkRunner(
      db,
      queue,
      settings,
      (stop) =>
        new JobExecution(queue, reporter, registry, inputs, store, settings, tenantKnown, stop),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const table = this.registry.table(ALL_ROUTES);
    const byEngine: Record<string, string[]> = {};
    for (const [route, engine] of Object.entries(table)) (byEngine[engine] ??= []).push(route);
    this.logger.log(
      `engines: ${Object.entries(byEngine)
        .map(([e, routes]) => `${e}: ${routes.join(' ')}`)
        .join(' | ')}`,
    );
    for (const backend of this.registry.backends()) {
      this.logger.log(`backend ${backend.description}`);
      // /readyz shows each backend: unreachable, or unable to run its routes (node types missing).
      this.readiness?.register(
        `backend:${backend.name}`,
        async () => {
          const problems = await backend.problems();
          if (problems.length) throw new Error(problems.join('; '));
        },
        { timeoutMs: backend.checkTimeoutMs },
      );
      void backend.problems().then(
        (problems) => {
          if (problems.length) this.logger.error(`backend ${backend.name} cannot run every route: ${problems.join('; ')}`);
          else this.logger.log(`backend ${backend.name}: reachable, able to run its routes`);
        },
        (error: unknown) => this.logger.warn(`backend ${backend.name}: ${errorMessage(error)}`),
      );
    }
    await this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}
