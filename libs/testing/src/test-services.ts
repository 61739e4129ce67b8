/**
 * Addresses of the real services an integration test talks to. `npm test`
 * (scripts/test.mjs) starts them — PostgreSQL, the Kafka-protocol broker and an
 * S3 server as local processes, or containers where Docker runs — and exports
 * these variables; a test never starts or mocks them itself.
 */
export interface TestServices {
  /** Superuser URL of the test PostgreSQL server; tests create their own databases. */
  postgresUrl: string;
  kafkaBrokers: string[];
  /** FIFO of the mock broker launcher; absent when a real Kafka runs (testcontainers). */
  kafkaControl?: string;
  s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string; bucket: string };
}

export function testServices(env: NodeJS.ProcessEnv = process.env): TestServices {
  const missing = ['TEST_DATABASE_URL', 'KAFKA_BROKERS', 'S3_ENDPOINT', 'S3_BUCKET'].filter((k) => !env[k]);
  if (missing.length) {
    throw new Error(
      `integration tests need real services; missing ${missing.join(', ')}. Run them through \`npm test\`, which starts PostgreSQL, the Kafka-protocol broker and s3rver.`,
    );
  }
  return {
    postgresUrl: env.TEST_DATABASE_URL!,
    kafkaBrokers: env.KAFKA_BROKERS!.split(','),
    kafkaControl: env.KAFKA_MOCK_CONTROL || undefined,
    s3: {
      endpoint: env.S3_ENDPOINT!,
      region: env.S3_REGION ?? 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID ?? 'S3RVER',
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? 'S3RVER',
      bucket: env.S3_BUCKET!,
    },
  };
}

/** The S3_* variables an app needs to use the test S3 server (apps, harnesses and benches alike). */
export function s3Env(s3: TestServices['s3']): Record<string, string> {
  return {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}
