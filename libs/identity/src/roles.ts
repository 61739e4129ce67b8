export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Scopes widen what a key may do beyond its role. `team.webhooks.manage` lets
 * a key manage its team's webhook endpoints without being a team admin.
 */
export const SCOPES = ['team.webhooks.manage'] as const;
export type Scope = (typeof SCOPES)[number];
