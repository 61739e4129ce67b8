/**
 * The public and admin APIs' version, `info.version` of every OpenAPI document
 * the processes serve: the time (ISO 8601 UTC, the form the spec asks for) at
 * which the API took its current shape, so the same code always states the same
 * version. `fingerprint` is `openApiFingerprint` of the platform's two documents
 * at that version: apps/platform/test/embedded-mode.int-spec.ts fails when the
 * documents served no longer match it, and names the two values to record here.
 */
export const API_VERSION = {
  version: '2026-11-28T03:29:30.000Z',
  fingerprint: 'c7706b38d50036db',
} as const;
