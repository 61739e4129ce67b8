// The backends file's loader lives in @genasset/config (asset-service reads the same file: search's embedding model).
export { BACKENDS_VARIABLE, loadBackendsFile, problems, describeBackend, type BackendConfig, type ComfyuiBackendConfig } from '@genasset/config';
