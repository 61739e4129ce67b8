import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IdentityService } from '@genasset/identity';

export interface BootstrapFile {
  adminToken: string;
  teamId: string;
  projectId: string;
  apiKey: string;
  apiSecret: string;
}

export function bootstrapPath(dataDir: string): string {
  return join(resolve(dataDir), 'bootstrap.json');
}

/**
 * The admin token of an embedded install: ADMIN_TOKEN when set, else the one
 * generated on the first start and kept in bootstrap.json.
 */
export function embeddedAdminToken(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const file = bootstrapPath(dataDir);
  if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as BootstrapFile).adminToken;
  return `adm_${randomBytes(24).toString('base64url')}`;
}

/**
 * First start on an empty data directory: a team, a project in it and an
 * admin API key for that project, written to bootstrap.json (mode 0600) so the
 * person who ran `npm start` can call the API at once. Later starts find a
 * team and do nothing.
 */
export async function bootstrapEmbeddedTenant(
  identity: IdentityService,
  dataDir: string,
  adminToken: string,
): Promise<BootstrapFile | undefined> {
  const file = bootstrapPath(dataDir);
  if ((await identity.countTeams()) > 0) return undefined;
  const team = await identity.createTeam('Default team');
  const project = await identity.createProject(team.id, 'Default project');
  const issued = await identity.createApiKey({
    teamId: team.id,
    projectId: project.id,
    role: 'admin',
    scopes: ['team.webhooks.manage'],
  });
  const content: BootstrapFile = {
    adminToken,
    teamId: team.id,
    projectId: project.id,
    apiKey: issued.key.id,
    apiSecret: issued.apiSecret,
  };
  mkdirSync(resolve(dataDir), { recursive: true });
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  return content;
}
