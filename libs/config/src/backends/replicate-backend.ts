import { z } from 'zod';
import { TRAINING_ROUTE } from './routes';
import { credentialsSchema, duration, envName, httpUrl, maxOutputBytes, route } from './backend-schema';

/** Literal inputs a route sends to the model (its own parameters: `scheduler`, `lora_scale`…), added to the request's. */
const inputs = z.record(route, z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()]))).default({});

/** `owner/name` (the model's latest version), `owner/name:<version>` or a bare 64-hex version id. */
export const modelRef = z
  .string()
  .regex(/^([a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*(:[0-9a-f]{64})?|[0-9a-f]{64})$/, {
    message: 'expected owner/name, owner/name:<64-hex version> or a version id',
  });

const timeouts = z
  .strictObject({
    /** One HTTP call (submit, poll, cancel, an output's download). */
    request: duration('30s'),
    /** From submission to the end of the prediction; past it the prediction is canceled and the job fails. */
    job: duration('30m'),
  })
  .default({ request: 30_000, job: 1_800_000 });

/**
 * A self-hosted Cog container (`cog serve`, `docker run -p 5000:5000 r8.im/…`): docs/backends/replicate.md.
 * One model per container, so a route is just the inputs it sends.
 */
export const cogBackend = z.strictObject({
  type: z.literal('cog'),
  url: httpUrl,
  credentials: credentialsSchema.optional(),
  /** Predictions this process runs on the container at once (Cog answers 409 when its slots are full). */
  concurrency: z.number().int().min(1).max(64).default(1),
  timeouts,
  /** How often an in-flight prediction is asked about while this worker is not holding its request. */
  pollInterval: duration('1s'),
  maxOutputBytes,
  routes: z.array(route).min(1),
  inputs,
  /**
   * This service's base URL as the container reaches it: with INFERENCE_CALLBACK_SECRET set,
   * predictions run asynchronously (`Prefer: respond-async`) and report to a signed webhook under
   * it; without it, each PUT is held until the prediction ends.
   */
  callbackUrl: z.url({ protocol: /^https?$/, message: 'Invalid URL (expected http:// or https://)' }).optional(),
  /** Asynchronous mode: how long without a callback before the worker asks the container again (the same PUT). */
  callbackFallback: duration('30s'),
});

/** Hosted Replicate (api.replicate.com), or anything speaking its HTTP API. */
export const replicateBackend = z
  .strictObject({
    type: z.literal('replicate'),
    url: httpUrl.default('https://api.replicate.com/v1'),
    /** Replicate takes `Authorization: Bearer <API token>`. */
    credentials: credentialsSchema,
    concurrency: z.number().int().min(1).max(256).default(4),
    timeouts,
    pollInterval: duration('2s'),
    maxOutputBytes,
    routes: z.array(route).min(1),
    /** The model each route runs. */
    models: z.record(route, modelRef),
    inputs,
    /**
     * This service's public base URL (`https://genasset.example.com`): predictions carry a webhook
     * under it whose path names the submission, which is how a prediction is found again after a
     * crash (Replicate has no idempotency key).
     */
    callbackUrl: z.url({
      protocol: /^https?$/,
      error: (issue) =>
        issue.input === undefined
          ? "required: this service's public base URL (Replicate calls back under it)"
          : 'Invalid URL (expected http:// or https://)',
    }),
    /** The variable holding Replicate's webhook signing secret (`GET /v1/webhooks/default/secret`). */
    webhookSecretEnv: envName.optional(),
    /**
     * Trainings (route `model-training`, its model the trainer `owner/name:<version>`): the model
     * each training pushes a new version to (`owner/name`, created on Replicate beforehand).
     */
    destination: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*$/, { message: 'expected owner/name (an existing Replicate model)' })
      .optional(),
    /** The trainer's input taking the training images (a zip file's URL); most trainers call it `input_images`. */
    trainingImagesInput: z.string().min(1).default('input_images'),
  })
  .superRefine((config, ctx) => {
    config.routes.forEach((r, i) => {
      if (!config.models[r]) ctx.addIssue({ code: 'custom', path: ['routes', i], message: `${r} needs a model: set models.${r} (owner/name)` });
    });
    const trainer = config.models[TRAINING_ROUTE];
    if (!config.routes.includes(TRAINING_ROUTE)) return;
    if (trainer && !/^[^/]+\/[^:]+:[0-9a-f]{64}$/.test(trainer))
      ctx.addIssue({ code: 'custom', path: ['models', TRAINING_ROUTE], message: 'a trainer is run at a pinned version: owner/name:<64-hex version>' });
    if (!config.destination)
      ctx.addIssue({ code: 'custom', path: ['destination'], message: 'model-training needs a destination: the owner/name trainings push versions to' });
  });

export type CogBackendConfig = z.infer<typeof cogBackend> & { name: string; headers: Record<string, string> };
export type ReplicateBackendConfig = z.infer<typeof replicateBackend> & {
  name: string;
  headers: Record<string, string>;
  /** Resolved from webhookSecretEnv (a secret: never logged). */
  webhookSecret?: string;
};
