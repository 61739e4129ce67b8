/** The test services' settings switched off: empty values count as unset, so a process runs embedded whatever was exported. */
const NO_TEST_SERVICES = {
  DATABASE_URL: '',
  KAFKA_BROKERS: '',
  S3_ENDPOINT: '',
  S3_BUCKET: '',
} as const;

/**
 * Environment that makes a spawned platform run embedded (PGlite, in-process events, filesystem
 * store) however the test services were exported to this process, and provision its own admin
 * token: the empty values override the inherited DATABASE_URL, KAFKA_BROKERS and S3_*.
 */
export const EMBEDDED_PLATFORM_ENV = { ...NO_TEST_SERVICES, ADMIN_TOKEN: '' } as const;

/** Environment of an in-process service harness running embedded: PGlite and files under `dataDir`, served on `port`. */
export function embeddedServiceEnv(dataDir: string, port: number): Record<string, string> {
  return { ...NO_TEST_SERVICES, DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
}
