/**
 * Who an endpoint belongs to. `ownerType` is part of the public record: the
 * spec fixes `project`; for team endpoints it shows no value, and we use
 * `team` (docs/webhooks.md).
 */
export const OWNER_TYPES = ['project', 'team'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

export interface WebhookOwner {
  readonly type: OwnerType;
  /** The project id or team id from the route. */
  readonly id: string;
  /** The team the owner belongs to (the team itself for a team owner). */
  readonly teamId: string;
}

/** The API key scope that may manage team endpoints without being a team admin (spec: Authentication 4). */
export const TEAM_WEBHOOKS_SCOPE = 'team.webhooks.manage';
