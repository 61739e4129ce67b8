import { createHash } from 'node:crypto';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * What the API is, as a short hash: SHA-256 of the documents (paths, operations,
 * schemas, security) with their keys sorted and `info.version` left out, so the
 * same code always gives the same fingerprint and any change to a route or a
 * schema gives another. Compared with the recorded one (api-version.ts) by the
 * platform's test, which is how a change to the API cannot ship under an old version.
 */
export function openApiFingerprint(...documents: OpenAPIObject[]): string {
  const hash = createHash('sha256');
  for (const document of documents) {
    hash.update(canonicalJson({ ...document, info: { ...document.info, version: undefined } }));
    hash.update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * JSON with object keys sorted at every depth (array order is meaningful and kept).
 * Hand-written: a replacer does it in four lines, no dependency of the repo offers it.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
