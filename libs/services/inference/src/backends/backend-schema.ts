// The backends file's schema lives in @genasset/config (asset-service reads the same file: search's embedding model).
export { credentialsSchema, duration, envName, httpUrl, maxOutputBytes, route, type Credentials } from '@genasset/config';
