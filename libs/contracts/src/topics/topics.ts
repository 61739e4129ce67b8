/**
 * Every topic of the platform, versioned in its name. A breaking payload change
 * gets a new topic (v2) consumed side by side until producers move over.
 * Each topic has a dead-letter companion `<topic>.dlt` carrying rejected
 * messages with the reason in headers.
 */
export const TOPICS = {
  /** job-service: the one producer of job lifecycle facts. Key: jobId. */
  jobLifecycle: 'job.lifecycle.v1',
  /** job-service → executors: work to run (generation, training, export). Key: jobId. */
  jobWork: 'job.work.v1',
  /** executors → job-service: progress and results of work. Key: jobId. */
  jobReports: 'job.reports.v1',
  /** asset-service: asset created/updated/deleted facts. Key: assetId. */
  assetEvents: 'asset.events.v1',
  /** collection-service: membership changes and deleted collections. Key: collectionId. */
  collectionEvents: 'collection.events.v1',
  /** generation-service: model registry facts (model.deleted). Key: modelId. */
  modelEvents: 'model.events.v1',
  /** job-service: team alerts (credit threshold crossings). Key: teamId. */
  teamAlerts: 'team.alerts.v1',
  /** Diagnostics: probes that exercise the pipeline end to end (tests, bench, smoke checks). Key: probe subject. */
  platformProbe: 'platform.probe.v1',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export const DEAD_LETTER_SUFFIX = '.dlt';

export function deadLetterTopic(topic: string): string {
  return `${topic}${DEAD_LETTER_SUFFIX}`;
}

/** Partitions each topic is created with (provisioning command and test broker). */
export const DEFAULT_PARTITIONS = 6;

/** Every topic including dead-letter topics: what provisioning creates. */
export function allTopics(): string[] {
  return Object.values(TOPICS).flatMap((t) => [t, deadLetterTopic(t)]);
}
