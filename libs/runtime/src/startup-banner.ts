import { existsSync } from 'node:fs';
import { DOCS_PATH, OPENAPI_JSON_PATH } from '@genasset/http';
import { bootstrapPath } from './embedded-bootstrap';

export interface StartupBannerOptions {
  /** What the server listens on (`http://0.0.0.0:8080`). */
  url: string;
  dataDir: string;
  /** The admin API's reference page, when the process serves one. */
  adminDocsPath?: string;
  /** The web console, when the process serves it. */
  consolePath?: string;
}

/**
 * The few lines a person needs after `npm start`, printed to stdout once the
 * embedded platform is ready (the JSON logs go there too, and stay complete):
 * where the API and its reference are, where the credentials are, and a first
 * call to copy. The call reads the key from bootstrap.json with node, which
 * every machine running this has, so the secret is never printed.
 */
export function startupBanner(options: StartupBannerOptions): string {
  const base = browsableUrl(options.url);
  const file = bootstrapPath(options.dataDir);
  const credentials = existsSync(file)
    ? `${file}  (apiKey and apiSecret for /v1; adminToken for /admin/v1 and the CLI)`
    : `no ${file}: the data directory held a team before it was written; ADMIN_TOKEN provisions keys`;
  const readKey = `node -p 'const b = require(process.argv[1]); b.apiKey + ":" + b.apiSecret' ${shellQuote(file)}`;
  const lines = [
    '',
    'genasset is ready (embedded mode)',
    '',
    `  API           ${base}/v1`,
    ...(options.consolePath
      ? [`  Console       ${base}${options.consolePath}   (sign in with apiKey and apiSecret)`]
      : []),
    `  Reference     ${base}${DOCS_PATH}   (OpenAPI: ${base}${OPENAPI_JSON_PATH})`,
    ...(options.adminDocsPath ? [`  Admin API     ${base}${options.adminDocsPath}`] : []),
    `  Credentials   ${credentials}`,
    '',
    '  First call:',
    `    curl -u "$(${readKey})" ${base}/v1/me`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/** A wildcard listen address is not one a browser can open: show localhost instead. */
function browsableUrl(url: string): string {
  return url.replace(/^http:\/\/(0\.0\.0\.0|\[::\]|\[::0?\])(?=:|$)/, 'http://localhost');
}

/** A path as one word for a POSIX shell (bash, zsh, sh). */
function shellQuote(text: string): string {
  return /^[\w./@:+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
