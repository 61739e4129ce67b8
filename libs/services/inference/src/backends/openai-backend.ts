// The backends file's schema lives in @genasset/config (asset-service reads the same file: search's embedding model).
export { OPENAI_ROUTES, openaiBackend, type OpenaiBackendConfig } from '@genasset/config';
