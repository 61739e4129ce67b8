import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../load-config';
import { isModeRoute, MODE_TABLE, modeOfRoute } from '@genasset/contracts';
import { credentialsSchema, duration, httpUrl, maxOutputBytes, route, type Credentials } from './backend-schema';
import { openaiBackend, type OpenaiBackendConfig } from './openai-backend';
import { cogBackend, replicateBackend, type CogBackendConfig, type ReplicateBackendConfig } from './replicate-backend';

/** The variable naming the backends file; every error of the file is reported under it. */
export const BACKENDS_VARIABLE = 'INFERENCE_BACKENDS_FILE';

/** Engine names a backend may not take: they name the built-in engines in INFERENCE_ENGINES. */
/**
 * Why a backend of `type` cannot serve a mode's route, by the mode table (openai's routes are its
 * schema's check): comfyui, replicate and cog answer with files, so not the result-field modes.
 */
function cannotServe(type: string, route: string): string | undefined {
  if (type !== 'comfyui' && type !== 'replicate' && type !== 'cog') return undefined;
  if (!isModeRoute(route)) return undefined;
  const mode = modeOfRoute(route);
  if ((MODE_TABLE[mode].backends as readonly string[]).includes(type)) return undefined;
  return MODE_TABLE[mode].outputs.length === 0
    ? `a ${type} backend cannot serve ${route}: it answers with files, and ${mode} answers with text (use openai or http)`
    : `a ${type} backend cannot serve ${route} (only the http engine can: docs/engines.md)`;
}

const RESERVED_NAMES = ['image', 'text', 'preview', 'http', 'none', 'export'];

/** Values of workflow placeholders the request does not give (checkpoint, controlnet_model…). */
const defaults = z.record(
  z.string().regex(/^[a-z_]+$/, { message: 'expected a placeholder name like checkpoint' }),
  z.union([z.string(), z.number(), z.boolean()]),
);

const comfyui = z.strictObject({
  type: z.literal('comfyui'),
  url: httpUrl,
  credentials: credentialsSchema.optional(),
  /** Jobs this process runs on the backend at once; more wait for a slot (ComfyUI queues anyway). */
  concurrency: z.number().int().min(1).max(256).default(2),
  timeouts: z
    .strictObject({
      /** One HTTP call (submit, upload, history, download). */
      request: duration('30s'),
      /** From submission to the end of the work; past it the work is interrupted and the job fails. */
      job: duration('30m'),
    })
    .default({ request: 30_000, job: 1_800_000 }),
  /** How often /history is asked while the websocket is down (and as a check while it is up). */
  pollInterval: duration('1s'),
  maxOutputBytes,
  /** The routes it serves: modes, or detect:<modality>. */
  routes: z.array(route).min(1),
  /** Workflow files (API format) replacing or adding the template of a route; relative to this file. */
  workflows: z.record(route, z.string().min(1)).default({}),
  defaults: defaults.default({}),
  /** Per registry model (modelId): its own placeholder values (checkpoint…) and workflows. */
  models: z
    .record(
      z.string().min(1),
      z.strictObject({
        defaults: defaults.default({}),
        workflows: z.record(route, z.string().min(1)).default({}),
      }),
    )
    .default({}),
});

/** One backend, told apart by `type` (each type its own object; `http` joins as its engine is written). */
const backend = z.discriminatedUnion('type', [comfyui, openaiBackend, replicateBackend, cogBackend], {
  error: 'expected "comfyui", "openai", "replicate" or "cog" (the backend types this version runs)',
});

const backendsFile = z.strictObject({ backends: z.record(z.string(), backend) });

export type ComfyuiBackendConfig = z.infer<typeof comfyui> & {
  name: string;
  /** Resolved credential headers (secrets: never logged). */
  headers: Record<string, string>;
  /** Workflow paths made absolute. */
  workflowFiles: Record<string, string>;
  modelWorkflowFiles: Record<string, Record<string, string>>;
};
export type BackendConfig = ComfyuiBackendConfig | OpenaiBackendConfig | ReplicateBackendConfig | CogBackendConfig;

/**
 * Reads and validates the backends file (JSON, or YAML by its extension `.yaml`/`.yml`). Every
 * problem is reported at once under INFERENCE_BACKENDS_FILE with its path in the file
 * (`backends.gpu1.url: Invalid URL`), and so are credential variables that are not set and two
 * backends claiming one route.
 *
 * `secretsOf` (default: every backend) names the backends whose credential (and webhook secret)
 * variables this process needs: asset-service reads the file for its search model only, so it
 * needs that backend's key, not the ComfyUI or Replicate tokens. The others' `headers` are empty.
 */
export function loadBackendsFile(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  options: { secretsOf?: (backend: { type: string; models?: unknown }) => boolean } = {},
): BackendConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw problems([`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  let data: unknown;
  try {
    data = ['.yaml', '.yml'].includes(extname(path).toLowerCase()) ? YAML.parse(text) : JSON.parse(text);
  } catch (error) {
    throw problems([`${path}: not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`]);
  }
  const parsed = backendsFile.safeParse(data);
  if (!parsed.success)
    throw problems(parsed.error.issues.map((issue) => `${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`));
  const found: string[] = [];
  const servedBy = new Map<string, string>();
  let searchBy: string | undefined;
  const base = dirname(resolve(path));
  const backends = Object.entries(parsed.data.backends).map(([name, config]) => {
    // Checked here, not by the schema: zod reports a bad record key without the refinement's words.
    if (!/^[a-z][a-z0-9-]{0,39}$/.test(name))
      found.push(`${path}: backends.${name}: a backend name is 1–40 lower-case letters, digits and -, starting with a letter`);
    else if (RESERVED_NAMES.includes(name)) found.push(`${path}: backends.${name}: names a built-in engine`);
    config.routes.forEach((r, i) => {
      const other = servedBy.get(r);
      const cannot = cannotServe(config.type, r);
      if (other) found.push(`${path}: backends.${name}.routes.${i}: ${r} is already served by ${other}`);
      else if (cannot) found.push(`${path}: backends.${name}.routes.${i}: ${cannot}`);
      else servedBy.set(r, name);
    });
    if (config.type === 'openai' && config.models.searchEmbedding) {
      if (searchBy) found.push(`${path}: backends.${name}.models.searchEmbedding: search already embeds with ${searchBy} (name one backend's searchEmbedding)`);
      else searchBy = name;
    }
    const secrets = options.secretsOf?.(config) ?? true;
    const headers = secrets
      ? credentialHeaders(config.credentials, env, (field, variable) =>
          found.push(`${path}: backends.${name}.credentials.${field}: the environment variable ${variable} is not set`),
        )
      : {};
    const absolute = (files: Record<string, string>) =>
      Object.fromEntries(Object.entries(files).map(([r, file]) => [r, resolve(base, file)]));
    if (config.type === 'replicate') {
      const webhookSecret = config.webhookSecretEnv ? env[config.webhookSecretEnv] : undefined;
      if (secrets && config.webhookSecretEnv && !webhookSecret)
        found.push(`${path}: backends.${name}.webhookSecretEnv: the environment variable ${config.webhookSecretEnv} is not set`);
      return { ...config, name, headers, webhookSecret };
    }
    if (config.type !== 'comfyui') return { ...config, name, headers };
    return {
      ...config,
      name,
      headers,
      workflowFiles: absolute(config.workflows),
      modelWorkflowFiles: Object.fromEntries(
        Object.entries(config.models).map(([model, m]) => [model, absolute(m.workflows)]),
      ),
    };
  });
  if (found.length) throw problems(found);
  return backends;
}

function credentialHeaders(
  credentials: Credentials | undefined,
  env: NodeJS.ProcessEnv,
  missing: (field: string, variable: string) => void,
): Record<string, string> {
  if (!credentials) return {};
  const read = (field: string, variable: string) => {
    const value = env[variable];
    if (!value) missing(field, variable);
    return value ?? '';
  };
  switch (credentials.scheme) {
    case 'bearer':
      return { authorization: `Bearer ${read('tokenEnv', credentials.tokenEnv)}` };
    case 'basic': {
      const user = read('usernameEnv', credentials.usernameEnv);
      const password = read('passwordEnv', credentials.passwordEnv);
      return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
    }
    case 'header':
      return { [credentials.header.toLowerCase()]: read('valueEnv', credentials.valueEnv) };
  }
}

export function problems(messages: string[]): ConfigError {
  return new ConfigError(messages.map((message) => ({ variable: BACKENDS_VARIABLE, message })));
}

/** What the start-up log shows of a backend: never its credentials, only how it authenticates. */
export function describeBackend(backend: BackendConfig): string {
  const auth = backend.credentials ? ` auth=${backend.credentials.scheme}` : '';
  const url = new URL(backend.url);
  if (url.username || url.password) [url.username, url.password] = ['***', ''];
  const search = backend.type === 'openai' && backend.models.searchEmbedding ? ` (search embeddings: ${backend.models.searchEmbedding})` : '';
  return `${backend.name} (${backend.type} ${url.toString()}${auth} concurrency=${backend.concurrency}): ${backend.routes.join(' ')}${search}`;
}

/** What search needs of the backend naming `models.searchEmbedding` (docs/search.md, "Text to image"). */
export interface SearchEmbeddingBackend {
  /** The backend's name in the file. */
  backend: string;
  /** The API base URL, with its version. */
  url: string;
  /** Resolved credential headers (secrets: never logged). */
  headers: Record<string, string>;
  model: string;
  /** One call's time limit, ms (the backend's `timeouts.request`). */
  requestTimeoutMs: number;
}

/** Whether a backend is the search embedding model's (`loadBackendsFile`'s `secretsOf` for asset-service). */
export const isSearchEmbeddingBackend = (backend: { type: string; models?: unknown }): boolean =>
  backend.type === 'openai' && !!(backend.models as { searchEmbedding?: string } | undefined)?.searchEmbedding;

/** The search embedding model of the loaded file: the one openai backend naming `models.searchEmbedding`, if any. */
export function searchEmbeddingBackend(backends: readonly BackendConfig[]): SearchEmbeddingBackend | undefined {
  for (const b of backends) {
    if (b.type === 'openai' && b.models.searchEmbedding)
      return { backend: b.name, url: b.url, headers: b.headers, model: b.models.searchEmbedding, requestTimeoutMs: b.timeouts.request };
  }
  return undefined;
}
