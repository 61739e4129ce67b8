// The backends file's schema lives in @genasset/config (asset-service reads the same file: search's embedding model).
export { modelRef, cogBackend, replicateBackend, type CogBackendConfig, type ReplicateBackendConfig } from '@genasset/config';
