/**
 * Environment that makes a spawned platform run embedded (PGlite, in-process events, filesystem
 * store) however the test services were exported to this process, and provision its own admin
 * token: the empty values override the inherited DATABASE_URL, KAFKA_BROKERS and S3_*.
 */
export const EMBEDDED_PLATFORM_ENV = {
  DATABASE_URL: '',
  KAFKA_BROKERS: '',
  S3_ENDPOINT: '',
  S3_BUCKET: '',
  ADMIN_TOKEN: '',
} as const;
