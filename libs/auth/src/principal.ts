import type { Role, Scope } from '@genasset/identity';

/** Who is calling: an API key of a team (optionally of one project), or anonymous public access. */
export type Principal =
  | {
      kind: 'api-key';
      keyId: string;
      teamId: string;
      projectId: string | null;
      role: Role;
      scopes: Scope[];
    }
  | { kind: 'public' };

export type ApiKeyPrincipal = Extract<Principal, { kind: 'api-key' }>;

/** The literal Authorization value granting read access to public assets (spec: Authentication 3). */
export const PUBLIC_AUTH_TOKEN = 'public-auth-token';
