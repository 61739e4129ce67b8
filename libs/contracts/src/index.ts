export { EventEnvelope, TraceHeaders } from './envelope/event-envelope';
export {
  defineEvent,
  createEnvelope,
  newEventId,
  type EventDefinition,
  type DataOf,
  type PayloadClass,
} from './envelope/define-event';
export { validateEnvelope, type EnvelopeCheck } from './envelope/validate-envelope';
export {
  TOPICS,
  type TopicName,
  deadLetterTopic,
  DEAD_LETTER_SUFFIX,
  DEFAULT_PARTITIONS,
  allTopics,
} from './topics/topics';
export { ProbeRecorded, ProbeRecordedData } from './events/probe.events';
export { EVENT_DEFINITIONS, buildEventRegistry } from './events/registry';
export { prefixedId } from './ids/prefixed-id';
export { isUnstorable, mayHoldUnstorable, storable, unstorableMessage, unstorablePath } from './text/unstorable';
export {
  JobCreated,
  JobStarted,
  JobSucceeded,
  JobFailed,
  JobCanceled,
  JobLifecycleData,
  JobOutputData,
  JOB_TYPES,
  JOB_STATUSES,
  JOB_KINDS,
  type JobType,
  type JobStatus,
  type JobKind,
} from './events/job-lifecycle.events';
export {
  CreditThresholdCrossed,
  CreditThresholdCrossedData,
  THRESHOLD_UNITS,
  type ThresholdUnit,
} from './events/team-alert.events';
export {
  AssetCreated,
  AssetUpdated,
  AssetDeleted,
  AssetFactData,
  ASSET_PRIVACIES,
  type AssetPrivacy,
} from './events/asset.events';
export { ModelDeleted, ModelFactData } from './events/model.events';
export {
  CollectionDeleted,
  CollectionDeletedData,
  CollectionMembershipChanged,
  CollectionMembershipChangedData,
} from './events/collection.events';
export { InternalApiError, type TenantRef } from './internal/internal-api';
export { JOBS_API, type JobsApi, type JobView, type JobFlowNode, type CreateJobCommand } from './internal/jobs-api';
export { ASSETS_API, type AssetsApi, type AssetObject, type AssetEmbedding, type AssetCopy } from './internal/assets-api';
export { MODELS_API, type ModelsApi, type TagCount, type TagPage } from './internal/models-api';
export {
  JobWorkRequested,
  JobWorkCanceled,
  JobProgressReported,
  JobSucceededReported,
  JobFailedReported,
  JobWorkRequestedData,
  JobWorkCanceledData,
  JobProgressReportData,
  JobSucceededReportData,
  JobFailedReportData,
  JobTenantData,
  JOB_RUNNING_STATUSES,
  type JobRunningStatus,
} from './events/job-report.events';
export {
  JobOutputsProduced,
  JobOutputsProducedData,
  JobOutputFileData,
  MAX_JOB_OUTPUTS,
} from './events/job-outputs.events';
export {
  creativeUnitsCost,
  creativeUnitsRate,
  creativeUnitsCostTableFromEnv,
  parseCreativeUnitsCosts,
  DEFAULT_CREATIVE_UNITS_COSTS,
  DEFAULT_OUTPUT_PIXELS,
  GENERATION_MODES,
  GENERATION_MODE_GROUPS,
  CREATIVE_UNITS_GROUPS,
  CREATIVE_UNITS_RATE_FIELDS,
  type GenerationMode,
  type CreativeUnitsGroup,
  type CreativeUnitsRate,
  type CreativeUnitsCostTable,
  type CreativeUnitsRequest,
  type CreativeUnitsPrice,
} from './pricing/creative-units';
export {
  INFERENCE_DEFAULT_SIDE,
  INPUT_PICTURE_FIELDS,
  PICTURE_OUTPUT_MAX_SIDE,
  pictureOutputSize,
  SKYBOX_DEFAULT_WIDTH,
} from './pricing/output-size';
export { errorMessage } from './util/error-message';
export { sleep, type SleepOptions } from './util/sleep';
export {
  MODE_TABLE,
  MODES,
  MODE_ROUTES,
  DETECT_MODALITIES,
  DETECT_MODALITY_ENGINES,
  isGenerationMode,
  isModeRoute,
  modeSpec,
  routeOf,
  modeOfRoute,
  builtInEngineOf,
  outputAssetType,
  isResultMode,
  modeOfJobType,
  type ModeSpec,
  type ModeRoute,
  type ModeInput,
  type ModeBody,
  type ModeJobInput,
  type JobInputExtras,
  type DetectModality,
  type BuiltInEngine,
  type FileBackend,
  type OpenaiCall,
  type FieldRule,
  type FieldRules,
  type InputOf,
  ASPECT_RATIOS,
  PROMPT_EDITING_MODELS,
  PROMPT_MODES,
  SCHEDULERS,
  SKYBOX_STYLES,
} from './modes';
