import { ApiProperty } from '@nestjs/swagger';
import { ROLES, SCOPES, type Role, type Scope } from '../roles';

// Response bodies of the admin API, for its OpenAPI document (/admin/v1/openapi.json).

export class AdminTeam {
  @ApiProperty({ example: 'team_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  id!: string;

  @ApiProperty({ example: 'Acme studio' })
  name!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class CreateTeamResponse {
  @ApiProperty({ type: AdminTeam })
  team!: AdminTeam;
}

export class AdminProject {
  @ApiProperty({ example: 'proj_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  id!: string;

  @ApiProperty({ example: 'team_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  teamId!: string;

  @ApiProperty({ example: 'Mobile game' })
  name!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class CreateProjectResponse {
  @ApiProperty({ type: AdminProject })
  project!: AdminProject;
}

export class AdminApiKey {
  @ApiProperty({ example: 'key_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  id!: string;

  @ApiProperty({ example: 'team_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  teamId!: string;

  @ApiProperty({ type: String, nullable: true, description: 'null for a team-level key' })
  projectId!: string | null;

  @ApiProperty({ enum: ROLES })
  role!: Role;

  @ApiProperty({ enum: SCOPES, isArray: true })
  scopes!: Scope[];

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class IssuedApiKeyResponse {
  @ApiProperty({ example: 'key_01JD6Z3Q9V8K2M4N6P8R0T2V4X', description: 'The key id: the Basic auth user name' })
  apiKey!: string;

  @ApiProperty({ example: 'sk_…', description: 'The secret: the Basic auth password. Shown only in this answer' })
  apiSecret!: string;

  @ApiProperty({ type: AdminApiKey })
  key!: AdminApiKey;
}

export class RevokedApiKey {
  @ApiProperty({ example: 'key_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  id!: string;

  @ApiProperty({ format: 'date-time', description: 'When it was first revoked' })
  revokedAt!: string;
}

export class RevokeApiKeyResponse {
  @ApiProperty({ type: RevokedApiKey })
  apiKey!: RevokedApiKey;
}
