import { Injectable } from '@nestjs/common';
import { ulid } from 'ulid';
import { hashSecret, newApiKeyId, newApiSecret, secretMatches } from './api-keys/api-key-secret';
import { IdentityRepository } from './identity.repository';
import type { Role, Scope } from './roles';

export interface TeamRecord {
  id: string;
  name: string;
  createdAt: Date;
}
export interface ProjectRecord extends TeamRecord {
  teamId: string;
}
export interface ApiKeyRecord {
  id: string;
  teamId: string;
  projectId: string | null;
  role: Role;
  scopes: Scope[];
  createdAt: Date;
}
export interface IssuedApiKey {
  key: ApiKeyRecord;
  /** Shown once, at creation; only its hash is stored. */
  apiSecret: string;
}

export class IdentityNotFoundError extends Error {}

/** Teams, projects and API keys: the only writer of the identity schema. */
@Injectable()
export class IdentityService {
  private readonly revocationListeners = new Set<(keyId: string) => void>();

  constructor(private readonly rows: IdentityRepository) {}

  /**
   * Called with the key's id whenever this process revokes a key, so caches of verified keys in
   * this process (the auth guard's) drop it at once. Returns a function that unsubscribes.
   */
  onApiKeyRevoked(listener: (keyId: string) => void): () => void {
    this.revocationListeners.add(listener);
    return () => this.revocationListeners.delete(listener);
  }

  createTeam(name: string): Promise<TeamRecord> {
    return this.rows.createTeam(`team_${ulid()}`, name);
  }

  async createProject(teamId: string, name: string): Promise<ProjectRecord> {
    if (!(await this.rows.teamExists(teamId))) {
      throw new IdentityNotFoundError(`team ${teamId} not found`);
    }
    return this.rows.createProject(`proj_${ulid()}`, teamId, name);
  }

  async createApiKey(input: { teamId: string; projectId?: string; role: Role; scopes?: Scope[] }): Promise<IssuedApiKey> {
    if (input.projectId) {
      const project = await this.rows.findProject(input.projectId);
      if (!project || project.teamId !== input.teamId) {
        throw new IdentityNotFoundError(`project ${input.projectId} of team ${input.teamId} not found`);
      }
    } else if (!(await this.rows.teamExists(input.teamId))) {
      throw new IdentityNotFoundError(`team ${input.teamId} not found`);
    }
    const apiSecret = newApiSecret();
    const row = await this.rows.createApiKey({
      id: newApiKeyId(),
      teamId: input.teamId,
      projectId: input.projectId ?? null,
      role: input.role,
      scopes: [...new Set(input.scopes ?? [])],
      secretHash: hashSecret(apiSecret),
    });
    return { key: toKeyRecord(row), apiSecret };
  }

  /** The key's record when `secret` is its secret and it is not revoked; else undefined. */
  async verifyApiKey(keyId: string, secret: string): Promise<ApiKeyRecord | undefined> {
    if (!/^key_[0-9A-Z]{26}$/.test(keyId)) return undefined;
    const row = await this.rows.findApiKey(keyId);
    if (!row || row.revokedAt || !secretMatches(secret, row.secretHash)) return undefined;
    return toKeyRecord(row);
  }

  /**
   * Revokes a key for good: every check of it from now on fails (a replica that cached it verified
   * keeps accepting it for up to AUTH_CACHE_TTL). Revoking it again keeps the first time.
   * Undefined when no such key exists.
   */
  async revokeApiKey(keyId: string): Promise<{ id: string; revokedAt: Date } | undefined> {
    if (!/^key_[0-9A-Z]{26}$/.test(keyId)) return undefined;
    const row = await this.rows.revokeApiKey(keyId, new Date());
    if (!row?.revokedAt) return undefined;
    for (const listener of this.revocationListeners) listener(row.id);
    return { id: row.id, revokedAt: row.revokedAt };
  }

  /** The team owning a project, or undefined when the project does not exist. */
  teamOfProject(projectId: string): Promise<string | undefined> {
    return this.rows.teamOfProject(projectId);
  }

  countTeams(): Promise<number> {
    return this.rows.countTeams();
  }
}

function toKeyRecord(row: { id: string; teamId: string; projectId: string | null; role: string; scopes: string[]; createdAt: Date }): ApiKeyRecord {
  return {
    id: row.id,
    teamId: row.teamId,
    projectId: row.projectId,
    role: row.role as Role,
    scopes: row.scopes as Scope[],
    createdAt: row.createdAt,
  };
}
