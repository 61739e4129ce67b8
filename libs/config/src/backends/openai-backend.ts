import { z } from 'zod';
import { MODE_ROUTES, MODE_TABLE, isGenerationMode, type OpenaiCall } from '@genasset/contracts';
import { credentialsSchema, duration, httpUrl, maxOutputBytes, route } from './backend-schema';

/** What an OpenAI-compatible server can serve, and which of its models each needs. */
export const OPENAI_ROUTES: Readonly<Record<string, OpenaiCall>> = Object.fromEntries(
  MODE_ROUTES.flatMap((route) => {
    const call = isGenerationMode(route) ? (MODE_TABLE[route] as { openai?: OpenaiCall }).openai : undefined;
    return call ? [[route, call] as const] : [];
  }),
);

/**
 * An OpenAI-compatible server (OpenAI, LocalAI, vLLM, Ollama, TEI): docs/backends/openai.md. Its
 * calls are synchronous, so nothing is stored between them: a job that is run again calls again.
 */
export const openaiBackend = z
  .strictObject({
    type: z.literal('openai'),
    /** The API's base URL, with its version: `https://api.openai.com/v1`, `http://localai:8080/v1`. */
    url: httpUrl,
    credentials: credentialsSchema.optional(),
    /** Calls this process makes to the server at once; more jobs wait for a slot. */
    concurrency: z.number().int().min(1).max(256).default(4),
    timeouts: z
      .strictObject({
        /** One call (an image generation takes a while). */
        request: duration('120s'),
        /** The whole job, waits for a rate limit included. */
        job: duration('10m'),
      })
      .default({ request: 120_000, job: 600_000 }),
    maxOutputBytes,
    /** The routes it serves; none when it is there only for search (`models.searchEmbedding`). */
    routes: z.array(route).default([]),
    /**
     * The server's model for each kind of call: `image` (dall-e-3, gpt-image-1, stablediffusion), `chat` (a vision model),
     * `embedding`; and `searchEmbedding`, a model that embeds text and images into one space (CLIP-like, served as Infinity
     * serves it: `POST /embeddings` with `modality`), which asset-service uses for text-to-image search (docs/search.md).
     */
    models: z
      .strictObject({
        image: z.string().min(1).optional(),
        chat: z.string().min(1).optional(),
        embedding: z.string().min(1).optional(),
        searchEmbedding: z.string().min(1).optional(),
      })
      .default({}),
    /** How images come back: `b64_json` (default), `url` (fetched, size-capped), or `omit` the field (gpt-image-1 always answers b64_json). */
    imageResponseFormat: z.enum(['b64_json', 'url', 'omit']).default('b64_json'),
    /** Sizes the image model takes (dall-e-3: 1024x1024, 1792x1024, 1024x1792): the closest aspect is sent. Absent: width×height as asked. */
    sizes: z.array(z.string().regex(/^\d{2,5}x\d{2,5}$/, { message: 'expected WIDTHxHEIGHT' })).min(1).optional(),
    /** LocalAI reads a negative prompt after `|` in the prompt: set "|" to send it; absent, it is not sent. */
    negativePromptSeparator: z.string().min(1).max(8).optional(),
    /** max_tokens of chat calls. */
    maxTokens: z.number().int().min(16).max(32_768).default(600),
    /** 429 answers: waited out (retry-after, at most `maxWait`) up to `retries` times in the call, then the job is retried later. */
    rateLimit: z
      .strictObject({ retries: z.number().int().min(0).max(10).default(2), maxWait: duration('30s') })
      .default({ retries: 2, maxWait: 30_000 }),
  })
  .superRefine((config, ctx) => {
    if (!config.routes.length && !config.models.searchEmbedding)
      ctx.addIssue({ code: 'custom', path: ['routes'], message: 'name at least one route (or models.searchEmbedding, the model search embeds with)' });
    config.routes.forEach((r, i) => {
      const kind = OPENAI_ROUTES[r];
      if (!kind)
        ctx.addIssue({
          code: 'custom',
          path: ['routes', i],
          message: `an openai backend cannot serve ${r} (it serves ${Object.keys(OPENAI_ROUTES).join(', ')})`,
        });
      else if (!config.models[kind])
        ctx.addIssue({ code: 'custom', path: ['models', kind], message: `${r} needs the server's ${kind} model: name it` });
    });
  });

export type OpenaiBackendConfig = z.infer<typeof openaiBackend> & {
  name: string;
  /** Resolved credential headers (secrets: never logged). */
  headers: Record<string, string>;
};
