export { loadConfig, ConfigError } from './load-config';
export { vars, parseDuration } from './vars';
export { commonEnv, type CommonEnv } from './common';
export { z } from 'zod';
export { PROCESS_ENV } from './process-env';
// INFERENCE_BACKENDS_FILE: read by the inference worker (its engines) and by asset-service (search's embedding model).
export { TRAINING_ROUTE, knownRoute } from './backends/routes';
export { credentialsSchema, duration, envName, httpUrl, maxOutputBytes, route, type Credentials } from './backends/backend-schema';
export { OPENAI_ROUTES, openaiBackend, type OpenaiBackendConfig } from './backends/openai-backend';
export { modelRef, cogBackend, replicateBackend, type CogBackendConfig, type ReplicateBackendConfig } from './backends/replicate-backend';
export {
  BACKENDS_VARIABLE,
  loadBackendsFile,
  problems,
  describeBackend,
  type BackendConfig,
  type ComfyuiBackendConfig,
  searchEmbeddingBackend,
  isSearchEmbeddingBackend,
  type SearchEmbeddingBackend,
} from './backends/backends-file';
