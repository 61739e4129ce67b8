import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiError, PublicRoute, type RawBodyRequest } from '@genasset/http';
import { EngineRegistry } from '../engines/engine-registry';
import { ReplicateEngine } from '../engines/replicate/replicate.engine';
import { WorkQueueRepository } from '../work/work-queue.repository';
import { BackendCallbacks } from './backend-callbacks';
import { standardWebhookProblem } from './standard-webhooks';

type Query = Record<string, string | string[] | undefined>;
const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';
const FINAL = ['done', 'failed', 'canceled', 'ignored'];
/** Largest callback body taken: a Cog prediction with its outputs as data URLs. */
export const CALLBACK_BODY_BYTES = 32 * 1024 * 1024;

/**
 * `POST /v1/backend-callbacks/{backend}/{submission}?job=&expires=&signature=`: the webhooks
 * Replicate and Cog send about a prediction (or a Replicate training) (docs/backends/replicate.md, "Callbacks"). Served by
 * the inference module, so by the inference-worker process in distributed mode (the gateway routes
 * the path to it) and by the platform in embedded mode. Its URL signature is its credential (no
 * API auth applies); hosted Replicate's Standard Webhooks signature is checked too when the backend
 * names its secret. A valid Replicate callback only wakes the collector, which asks the backend
 * for the truth: no state changes here, so a replay changes nothing. Cog has no such truth to ask
 * (it forgets a finished prediction), so its report is kept with the work item — never over a
 * final one, and only while the job runs this submission — and a replay stores the same again.
 */
@ApiExcludeController()
@PublicRoute()
@Controller('backend-callbacks')
export class BackendCallbackController {
  constructor(
    private readonly registry: EngineRegistry,
    private readonly queue: WorkQueueRepository,
    private readonly callbacks: BackendCallbacks,
  ) {}

  @Post(':backend/:submission')
  // Replicate signs the bytes it sent: the body parser keeps them for this route (libs/http).
  // Cog's reports carry its outputs as data URLs: room for them (the signature is checked after the parse).
  @RouteConfig({ rawBody: true, bodyLimit: CALLBACK_BODY_BYTES })
  @HttpCode(204)
  async receive(
    @Param('backend') backend: string,
    @Param('submission') submission: string,
    // The query and body are read from the request: the app's validation would refuse an untyped query's fields.
    @Req() request: RawBodyRequest,
  ): Promise<void> {
    const query = request.query as Query;
    const body = request.body;
    const engine = this.registry.backend(backend);
    if (!(engine instanceof ReplicateEngine)) throw ApiError.notFound('Backend', backend);
    const jobId = single(query.job);
    const check = this.callbacks.verify(backend, submission, jobId, single(query.expires), single(query.signature));
    if (check === 'expired') throw ApiError.unauthorized('this callback URL has expired');
    if (check !== 'valid') throw ApiError.unauthorized('the callback URL signature does not match its backend, submission and job');
    const secret = engine.config.type === 'replicate' ? engine.config.webhookSecret : undefined;
    if (secret) {
      const problem = standardWebhookProblem(request.headers, request.rawBody ?? Buffer.alloc(0), secret);
      if (problem) throw ApiError.unauthorized(`the webhook signature is refused: ${problem}`);
    }
    const prediction = body as { id?: unknown; status?: unknown } | null;
    if (!prediction || typeof prediction.id !== 'string' || typeof prediction.status !== 'string')
      throw ApiError.badRequest('the body is not a prediction (id and status are required)');
    const work = await this.queue.taskOf(jobId);
    const task = work?.backendTask;
    if (!work || task?.backend !== backend || task.submission !== submission)
      throw ApiError.conflict(`job ${jobId} has no task ${submission} on ${backend}`);
    if (FINAL.includes(work.status)) throw ApiError.conflict(`job ${jobId} is already final (${work.status}): the callback changes nothing`);
    // A training's callback carries the training object, the same shape as a prediction's.
    if (engine.type === 'replicate' && task.handle && engine.handleId(task.handle) !== prediction.id)
      throw ApiError.conflict(`${prediction.id} is not the job's prediction or training (${engine.handleId(task.handle)})`);
    if (engine.type === 'cog') {
      // Cog forgets a prediction once it ends: its report is the outcome, kept for whichever worker collects.
      if (prediction.id !== submission) throw ApiError.conflict(`prediction ${prediction.id} is not the job's (${submission})`);
      await this.queue.storeReport(jobId, backend, submission, body as Record<string, unknown>);
    }
    this.callbacks.deliver(submission);
  }
}
