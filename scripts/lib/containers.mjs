import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';
import { info } from './log.mjs';
import { REPO_ROOT } from './paths.mjs';

// Where Docker runs (a developer's laptop), the real servers instead of the
// local stand-ins. Images can be overridden to match production versions.
const IMAGES = {
  postgres: process.env.TEST_POSTGRES_IMAGE ?? 'postgres:16',
  kafka: process.env.TEST_KAFKA_IMAGE ?? 'apache/kafka:3.9.0',
  minio: process.env.TEST_MINIO_IMAGE ?? 'minio/minio:latest',
};
const MINIO_CREDENTIALS = { accessKeyId: 'minioadmin', secretAccessKey: 'minioadmin' };

export async function startContainers({ topics, partitions, bucket }, onStarted) {
  const require = createRequire(join(REPO_ROOT, 'package.json'));
  const { GenericContainer, Wait, getContainerRuntimeClient } = require('testcontainers');
  const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
  const started = (image) => (container) => {
    onStarted(() => container.stop(), image);
    return container;
  };

  // Kafka must advertise the address clients dial, so its host port is fixed before start.
  const kafkaPort = await freePort();
  // Settled, not Promise.all: a failure must not leave teardown to run before the others registered.
  const settled = await Promise.allSettled([
    new GenericContainer(IMAGES.postgres)
      .withEnvironment({ POSTGRES_PASSWORD: 'postgres', POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withCommand([
        'postgres',
        ...['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=300'].flatMap(
          (s) => ['-c', s],
        ),
      ])
      .withTmpFs({ '/var/lib/postgresql/data': 'rw' })
      .withExposedPorts(5432)
      // The entrypoint starts a temporary server first; the second message is the real one.
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start()
      .then(started(IMAGES.postgres)),
    new GenericContainer(IMAGES.kafka)
      .withExposedPorts({ container: 9092, host: kafkaPort })
      .withEnvironment({
        // Any base64 UUID; this one is from the image's own documentation.
        CLUSTER_ID: '4L6g3nShT-eMCtK--X86sw',
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,BROKER://:9094,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${host}:${kafkaPort},BROKER://localhost:9094`,
        KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,BROKER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_NUM_PARTITIONS: String(partitions),
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .withStartupTimeout(120_000)
      .start()
      .then(started(IMAGES.kafka)),
    new GenericContainer(IMAGES.minio)
      .withCommand(['server', '/data'])
      .withEnvironment({
        MINIO_ROOT_USER: MINIO_CREDENTIALS.accessKeyId,
        MINIO_ROOT_PASSWORD: MINIO_CREDENTIALS.secretAccessKey,
      })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000))
      .start()
      .then(started(IMAGES.minio)),
  ]);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const [postgres, , minio] = settled.map((s) => s.value);

  const kafkaBrokers = `${host}:${kafkaPort}`;
  await createTopics(require, kafkaBrokers, topics, partitions);
  const s3Endpoint = `http://${minio.getHost()}:${minio.getMappedPort(9000)}`;
  await createBucket(require, s3Endpoint, bucket);
  info(`containers: ${IMAGES.postgres}, ${IMAGES.kafka}, ${IMAGES.minio}`);
  return {
    postgresUrl: (database) =>
      `postgresql://postgres:postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/${database}`,
    kafkaBrokers,
    s3: { endpoint: s3Endpoint, ...MINIO_CREDENTIALS },
  };
}

/** Provisioning is a separate step in production too; services never auto-create topics. */
async function createTopics(require, brokers, topics, partitions) {
  const { Kafka, logLevel } = require('kafkajs');
  const admin = new Kafka({ clientId: 'test-setup', brokers: [brokers], logLevel: logLevel.ERROR }).admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: topics.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
    });
  } finally {
    await admin.disconnect();
  }
}

async function createBucket(require, endpoint, bucket) {
  const { S3Client, CreateBucketCommand } = require('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: MINIO_CREDENTIALS,
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
}
