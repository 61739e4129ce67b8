import type { EventDefinition } from '../envelope/define-event';
import { AssetCreated, AssetDeleted, AssetUpdated } from './asset.events';
import { JobCanceled, JobCreated, JobFailed, JobStarted, JobSucceeded } from './job-lifecycle.events';
import { ProbeRecorded } from './probe.events';
import { CreditThresholdCrossed } from './team-alert.events';
import { JobFailedReported, JobProgressReported, JobSucceededReported, JobWorkCanceled, JobWorkRequested } from './job-report.events';
import { JobOutputsProduced } from './job-outputs.events';
import { ModelDeleted } from './model.events';
import { CollectionDeleted, CollectionMembershipChanged } from './collection.events';

/**
 * Every event definition, by type. Consumers validate messages against it.
 * Add new definitions to the list of their topic's section.
 */
export const EVENT_DEFINITIONS: readonly EventDefinition[] = [
  // platform.probe.v1
  ProbeRecorded,
  // job.lifecycle.v1
  JobCreated,
  JobStarted,
  JobSucceeded,
  JobFailed,
  JobCanceled,
  // asset.events.v1
  AssetCreated,
  AssetUpdated,
  AssetDeleted,
  // model.events.v1
  ModelDeleted,
  // collection.events.v1
  CollectionMembershipChanged,
  CollectionDeleted,
  // team.alerts.v1
  CreditThresholdCrossed,
  // job.work.v1
  JobWorkRequested,
  JobWorkCanceled,
  // job.reports.v1
  JobProgressReported,
  JobSucceededReported,
  JobFailedReported,
  JobOutputsProduced,
] as EventDefinition[];

export function buildEventRegistry(
  definitions: readonly EventDefinition[] = EVENT_DEFINITIONS,
): Map<string, EventDefinition> {
  const registry = new Map<string, EventDefinition>();
  for (const definition of definitions) {
    if (registry.has(definition.type)) throw new Error(`event type ${definition.type} is defined twice`);
    registry.set(definition.type, definition);
  }
  return registry;
}
