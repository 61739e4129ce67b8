import { setTimeout as sleep } from 'node:timers/promises';
import { describeBackend, type CogBackendConfig, type ReplicateBackendConfig } from '@genasset/config';
import { BackendCallbacks } from '../../callbacks/backend-callbacks';
import { BackendHttp } from '../backend/backend-http';
import { runOnce, Slots, type BackendEngine, type BackendTask, type TaskWhereabouts } from '../backend-engine';
import { EngineAborted, EngineError, type EngineContext, type EngineJob, type EngineResult } from '../engine';
import { routeOf, TRAINING_ROUTE } from '../modes';
import { CogApi } from './cog-api';
import { FINAL, ReplicateApi, type Prediction } from './prediction-api';
import { predictionInput } from './prediction-input';
import { logProgress, predictionError, storePredictionOutputs } from './prediction-outputs';
import { trainingImagesZip, trainingInput, trainingResult } from './replicate-training';
import { TrainingApi, trainingHandle, trainingOf } from './training-api';

/**
 * Runs routes as predictions (docs/backends/replicate.md), on hosted Replicate (`type: replicate`)
 * or on a self-hosted Cog container (`type: cog`): the same prediction objects, inputs and outputs,
 * two ways of submitting and following them.
 *
 * - Replicate: `POST /v1/predictions` (or the model's predictions) → the prediction id is the
 *   handle; `GET /v1/predictions/{id}` polled is the truth; after a crash with only an intent the
 *   prediction is looked for (its webhook URL names the submission) before any resubmission.
 * - Cog: `PUT /predictions/{submission}`, the idempotent form, held until the prediction ends; a
 *   restarted worker PUTs the same id again, which Cog answers with the running prediction (202)
 *   rather than starting another, and is asked again until it ends.
 * - Replicate trainings (`model-training` jobs): the images zipped and uploaded (`POST /v1/files`),
 *   `POST /v1/models/{owner}/{name}/versions/{version}/trainings` towards `destination`; the handle
 *   is `trainings/<id>`, followed like a prediction; its `output.version` is the model's trained
 *   version, which later generations on the model run (`input.learnedModel.version`).
 */
export class ReplicateEngine implements BackendEngine {
  readonly kind = 'backend' as const;
  readonly type: 'replicate' | 'cog';
  readonly name: string;
  readonly http: BackendHttp;
  private readonly replicate?: ReplicateApi;
  private readonly trainings?: TrainingApi;
  private readonly cog?: CogApi;
  private readonly slots: Slots;

  constructor(
    readonly config: ReplicateBackendConfig | CogBackendConfig,
    private readonly callbacks = new BackendCallbacks(),
  ) {
    this.name = config.name;
    this.type = config.type;
    this.http = new BackendHttp({
      label: `the ${config.type} backend ${config.name}`,
      url: config.url,
      headers: config.headers,
      requestTimeoutMs: config.timeouts.request,
    });
    if (config.type === 'replicate') {
      this.replicate = new ReplicateApi(this.http, config, callbacks);
      this.trainings = new TrainingApi(this.http);
    } else this.cog = new CogApi(this.http, config);
    this.slots = new Slots(config.concurrency);
  }

  supports(route: string): boolean {
    return this.config.routes.includes(route);
  }

  acquire(signal: AbortSignal): Promise<() => void> {
    return this.slots.acquire(signal);
  }

  run(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
    return runOnce(this, job, ctx);
  }

  /**
   * Replicate: creates the prediction (or, for `model-training`, uploads the images and creates the
   * training). Cog: nothing yet — the handle is the submission id, and `collect` PUTs it.
   */
  async submit(job: EngineJob, ctx: EngineContext, submission: string): Promise<string> {
    if (this.cogAsync) {
      const { input } = await predictionInput(job, ctx, routeOf(job.mode, job.input), this.config.inputs);
      await this.cog!.put(submission, input, { async: true, webhook: this.cogWebhook(submission, job.jobId), signal: ctx.signal });
      return submission;
    }
    if (!this.replicate || this.config.type !== 'replicate') return submission;
    const route = routeOf(job.mode, job.input);
    if (route === TRAINING_ROUTE) {
      const zip = await trainingImagesZip(job, ctx);
      const images = await this.trainings!.upload(zip, `${job.modelId ?? job.jobId}-training-images.zip`, 'application/zip', ctx.signal);
      const training = await this.trainings!.create(
        this.config.models[TRAINING_ROUTE],
        { destination: this.config.destination!, input: trainingInput(job, this.config, images), webhook: this.replicate.webhookFor(submission, job.jobId) },
        ctx.signal,
      );
      return trainingHandle(training.id);
    }
    const { input } = await predictionInput(job, ctx, route, this.config.inputs);
    return (await this.replicate.create(this.modelOf(job, route)!, input, submission, job.jobId, ctx.signal)).id;
  }

  async locate(task: BackendTask): Promise<TaskWhereabouts> {
    if (!this.replicate) return { state: 'queued', handle: task.handle ?? task.submission };
    const training = task.handle ? trainingOf(task.handle) : undefined;
    let found: Prediction | undefined;
    let handle: (id: string) => string = (id) => id;
    if (training) {
      found = await this.trainings!.get(training);
      handle = trainingHandle;
    } else if (task.handle) found = await this.replicate.get(task.handle);
    else {
      // Only an intent: the submission was a prediction or, on a backend that trains, maybe a training.
      found = await this.replicate.find(task.submission);
      if (!found && this.supports(TRAINING_ROUTE)) {
        found = await this.trainings!.find(task.submission);
        handle = trainingHandle;
      }
    }
    if (!found) return { state: 'missing' };
    return { state: FINAL.has(found.status) ? 'finished' : found.status === 'processing' ? 'running' : 'queued', handle: handle(found.id) };
  }

  async collect(job: EngineJob, ctx: EngineContext, task: Required<BackendTask>): Promise<EngineResult> {
    const route = routeOf(job.mode, job.input);
    const deadline = Date.now() + this.config.timeouts.job;
    const training = trainingOf(task.handle);
    if (training && this.config.type === 'replicate') {
      const get = (signal: AbortSignal) => this.trainings!.get(training, signal);
      return trainingResult(await this.poll(get, `training ${training}`, task.submission, ctx, deadline), this.config, this.http.label);
    }
    const prediction = this.replicate
      ? await this.poll((signal) => this.replicate!.get(task.handle, signal), `prediction ${task.handle}`, task.submission, ctx, deadline)
      : this.cogAsync
        ? await this.followReports(job, ctx, route, task.submission, deadline)
        : await this.putUntilDone(job, ctx, route, task.submission, deadline);
    if (prediction.status === 'failed' || prediction.status === 'aborted')
      throw new EngineError(`${this.http.label} failed prediction ${prediction.id}: ${predictionError(prediction)}`);
    if (prediction.status === 'canceled') throw new EngineError(`${this.http.label} canceled prediction ${prediction.id}`);
    const seed = typeof prediction.input?.seed === 'number' ? prediction.input.seed : undefined;
    const model = this.modelOf(job, route);
    const outputs = await storePredictionOutputs(this.http, prediction, job, ctx, {
      backend: this.name,
      maxBytes: this.config.maxOutputBytes,
      seed,
      model,
    });
    return { outputs, extra: { engine: this.type, backend: this.name, ...(seed !== undefined ? { seed } : {}) } };
  }

  async cancel(task: BackendTask): Promise<void> {
    const id = task.handle ?? (this.cog ? task.submission : undefined);
    if (!id) {
      const where = await this.locate(task);
      if (where.state === 'queued' || where.state === 'running') await this.cancel({ ...task, handle: where.handle });
      return;
    }
    const training = trainingOf(id);
    if (training) await this.trainings!.cancel(training);
    else await (this.cog ?? this.replicate!).cancel(id);
  }

  /** The backend's id of what a handle names (a training's or a prediction's): what its callbacks carry. */
  handleId(handle: string): string {
    return trainingOf(handle) ?? handle;
  }

  /** Replicate: the token works (GET /account). Cog: /health-check says READY or BUSY. */
  async problems(): Promise<string[]> {
    if (this.replicate) {
      await this.http.json('GET /account', 'account');
      return [];
    }
    const status = await this.cog!.health();
    return status === 'READY' || status === 'BUSY' ? [] : [`the container is ${status}`];
  }

  get description(): string {
    return describeBackend(this.config);
  }

  get checkTimeoutMs(): number {
    return Math.min(this.config.timeouts.request, 10_000);
  }

  /**
   * The Replicate model a generation runs: the version a training made for the job's model when
   * it names one of this backend (`input.learnedModel`), else the route's model.
   */
  private modelOf(job: EngineJob, route: string): string | undefined {
    if (this.config.type !== 'replicate') return undefined;
    const learned = job.input.learnedModel as { backend?: unknown; version?: unknown } | undefined;
    if (learned?.backend === this.name && typeof learned.version === 'string') return learned.version;
    return this.config.models[route];
  }

  /**
   * Polls GET /predictions/{id} (or /trainings/{id}) until it ends, reporting the progress its logs
   * show. A callback (backend-callback.controller.ts) cuts the wait short: the same GET then reads
   * the news.
   */
  private async poll(
    get: (signal: AbortSignal) => Promise<Prediction | undefined>,
    what: string,
    submission: string,
    ctx: EngineContext,
    deadline: number,
  ): Promise<Prediction> {
    for (;;) {
      const prediction = await get(ctx.signal);
      if (!prediction) throw new EngineError(`${this.http.label} lost the job: it no longer knows ${what}`);
      if (FINAL.has(prediction.status)) return prediction;
      this.report(prediction, ctx);
      await this.wait(what, ctx, deadline, submission, () => this.cancelWhat(what));
    }
  }

  private cancelWhat(what: string): Promise<void> {
    const [kind, id] = what.split(' ');
    return kind === 'training' ? this.trainings!.cancel(id) : (this.cog ?? this.replicate!).cancel(id);
  }

  /** Cog: PUT /predictions/{submission}, held; a 202 is the prediction a previous request started, asked again until it ends. */
  private async putUntilDone(job: EngineJob, ctx: EngineContext, route: string, submission: string, deadline: number): Promise<Prediction> {
    const { input } = await predictionInput(job, ctx, route, this.config.inputs);
    for (;;) {
      const prediction = await this.cog!.put(submission, input, { async: false, signal: ctx.signal }).catch((error: unknown) => {
        if (ctx.signal.aborted) throw new EngineAborted();
        throw error;
      });
      if (FINAL.has(prediction.status)) return { ...prediction, id: prediction.id ?? submission };
      this.report(prediction, ctx);
      await this.wait(`prediction ${submission}`, ctx, deadline, undefined, () => this.cog!.cancel(submission));
    }
  }

  /**
   * Cog in asynchronous mode: PUTs answered 202 at once, the prediction's reports posted to a
   * signed webhook (the callback route keeps them with the work item). Used when the container has
   * a `callbackUrl` and callbacks are signed (INFERENCE_CALLBACK_SECRET) and stored.
   */
  private get cogAsync(): boolean {
    return this.config.type === 'cog' && !!this.config.callbackUrl && this.callbacks.enabled && !!this.callbacks.reports;
  }

  private cogWebhook(submission: string, jobId: string): string {
    return this.callbacks.url((this.config as CogBackendConfig).callbackUrl!, this.name, submission, jobId, this.config.timeouts.job);
  }

  /**
   * Cog, asynchronous: follows the reports its webhook stored (a callback wakes the wait) until a
   * final one. Cog forgets a finished prediction, so the stored final report is the outcome — also
   * for a worker that restarted after it came. Without news for `callbackFallback` (a lost
   * callback, or a restart) the container is asked again with the same PUT, which answers the
   * running prediction rather than starting another.
   */
  private async followReports(job: EngineJob, ctx: EngineContext, route: string, submission: string, deadline: number): Promise<Prediction> {
    const config = this.config as CogBackendConfig;
    let lastNews = Date.now();
    let last = '';
    for (;;) {
      const stored = (await this.callbacks.reports!(job.jobId, submission)) as Prediction | undefined;
      if (stored && typeof stored.status === 'string') {
        if (FINAL.has(stored.status)) return { ...stored, id: submission };
        const seen = `${stored.status}|${typeof stored.logs === 'string' ? stored.logs.length : 0}`;
        if (seen !== last) [last, lastNews] = [seen, Date.now()];
        this.report(stored, ctx);
      }
      if (Date.now() - lastNews >= config.callbackFallback) {
        const { input } = await predictionInput(job, ctx, route, config.inputs);
        const answer = await this.cog!.put(submission, input, { async: true, webhook: this.cogWebhook(submission, job.jobId), signal: ctx.signal });
        if (FINAL.has(answer.status)) return { ...answer, id: submission };
        this.report(answer, ctx);
        lastNews = Date.now();
      }
      await this.wait(`prediction ${submission}`, ctx, deadline, submission, () => this.cog!.cancel(submission));
    }
  }

  private report(prediction: Prediction, ctx: EngineContext): void {
    const fraction = logProgress(prediction.logs);
    if (fraction !== undefined) void ctx.progress(fraction).catch(() => undefined);
  }

  /** Waits a poll interval; past the deadline the work is canceled and the job fails. */
  private async wait(what: string, ctx: EngineContext, deadline: number, submission: string | undefined, cancel: () => Promise<void>): Promise<void> {
    if (Date.now() > deadline) {
      await cancel().catch(() => undefined);
      throw new EngineError(`${this.http.label} did not finish ${what} within ${Math.round(this.config.timeouts.job / 1000)} s; it was canceled`);
    }
    const interval = Math.min(this.config.pollInterval, Math.max(0, deadline - Date.now()) + 10);
    if (submission) await this.callbacks.wait(submission, interval, ctx.signal);
    else await sleep(interval, undefined, { signal: ctx.signal }).catch(() => undefined);
    if (ctx.signal.aborted) throw new EngineAborted();
  }
}
