import type { OwnerType } from '../owners/webhook-owner';

/** Every public project event type (spec: Project event types), in the spec's order. */
export const PROJECT_EVENT_TYPES = [
  'generation.created',
  'generation.completed',
  'generation.failed',
  'asset.download.created',
  'asset.download.completed',
  'asset.download.failed',
  'model.download.created',
  'model.download.completed',
  'model.download.failed',
  'model.training.started',
  'model.training.completed',
  'model.training.failed',
  'model.training.cancelled',
] as const;

/** Every public team event type (spec: Team event type). */
export const TEAM_EVENT_TYPES = ['team.credit.threshold.crossed'] as const;

export type ProjectEventType = (typeof PROJECT_EVENT_TYPES)[number];
export type TeamEventType = (typeof TEAM_EVENT_TYPES)[number];
export type PublicEventType = ProjectEventType | TeamEventType;

/** `["*"]`: every event of the owner's kind, including types added later (matched at intake, never expanded). */
export const ALL_EVENTS = '*';

export const EVENT_TYPES_BY_OWNER: Readonly<Record<OwnerType, readonly PublicEventType[]>> = {
  project: PROJECT_EVENT_TYPES,
  team: TEAM_EVENT_TYPES,
};

const OWNER_OF_TYPE = new Map<string, OwnerType>([
  ...PROJECT_EVENT_TYPES.map((t) => [t, 'project'] as const),
  ...TEAM_EVENT_TYPES.map((t) => [t, 'team'] as const),
]);

/** Which owner kind receives `type`; undefined for a type we do not know. */
export function ownerTypeOfEvent(type: string): OwnerType | undefined {
  return OWNER_OF_TYPE.get(type);
}
