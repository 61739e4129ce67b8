export { s3Env, testServices, type TestServices } from './test-services';
export { createTestDatabase, type TestDatabase } from './test-database';
export { DATABASE_KINDS, openTestConnection, type DatabaseKind, type TestConnection } from './test-connection';
export { brokerControl } from './broker-control';
export { primeConsumerGroups } from './consumer-groups';
export { waitFor } from './wait-for';
export { unzip, type ZipEntry } from './unzip';
export { spawnTsProcess, type SpawnedProcess } from './spawn-process';
export { EMBEDDED_PLATFORM_ENV, embeddedServiceEnv, seedEmbeddedDataDir } from './embedded-env';
export { freePort } from './free-port';
export { answerBeforeBody, type PartialBodyRequest, type EarlyAnswer } from './partial-body';
export {
  WebhookReceiver,
  type ReceivedRequest,
  type PlannedResponse,
  type Responder,
  type WebhookReceiverOptions,
} from './webhook-receiver';
export { startServiceHarness, type ServiceHarness, type HarnessOptions, type Tenant } from './service-harness';
export { expectedShape, actualShape, type ColumnShape } from './schema-drift';
export { openApiResponseChecker, type OpenApiDocument } from './openapi-checker';
export {
  UpstreamContract,
  UPSTREAM_DOCUMENT_PATH,
  type SwaggerDocument,
  type UpstreamOperation,
} from './contract/upstream-contract';
export { MODE_EXAMPLES, type ExampleInputs, type ModeExample } from './generate-examples';
export {
  FakeComfyui,
  CORE_NODE_TYPES,
  IPADAPTER_NODE_TYPES,
  type FakeComfyuiFailure,
  type FakeComfyuiOptions,
  type Submitted,
} from './fakes/comfyui/fake-comfyui';
export {
  FakeOpenai,
  type ChatRequest,
  type FakeOpenaiFailure,
  type FakeOpenaiOptions,
  type FakeOpenaiRequest,
  FAKE_COLOURS,
} from './fakes/openai/fake-openai';
export { FakeCog, type SentWebhook } from './fakes/cog/fake-cog';
export { type FakePrediction, type FakePredictionFailure } from './fakes/cog/fake-predictions';
export { FakeReplicate, type FakeReplicateOptions } from './fakes/replicate/fake-replicate';
export { FAKE_BACKEND_ROUTES, FAKE_SDXL_VERSION, generateOnBackend, startFakeBackends, writeBackendsFile, type BackendRun, type DeploymentClient, type FakeBackendCase, type FakeBackends } from './fakes/fake-backends';
export { TopicReader, TopicMessage, type TopicReaderOptions } from './topic-reader';
