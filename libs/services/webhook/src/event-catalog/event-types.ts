import { PROJECT_EVENT_TYPES, TEAM_EVENT_TYPES } from '@genasset/webhooks';
import type { OwnerType } from '../owners/webhook-owner';

// The public catalog lives in the receiver library, so what the dispatcher sends and what
// receivers are typed against cannot drift apart.
export { PROJECT_EVENT_TYPES, TEAM_EVENT_TYPES };

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
