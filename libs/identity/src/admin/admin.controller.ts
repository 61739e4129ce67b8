import { Body, Controller, Delete, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError, ApiErrorResponses, IdParam } from '@genasset/http';
import { IdentityNotFoundError, IdentityService } from '../identity.service';
import { AdminTokenGuard } from './admin-token.guard';
import { CreateApiKeyDto, CreateProjectDto, CreateTeamDto } from './admin.dto';
import { CreateProjectResponse, CreateTeamResponse, IssuedApiKeyResponse, RevokeApiKeyResponse } from './admin.responses';

/**
 * Operator API: provisions tenants. Documented at /admin/v1/openapi.json, never in
 * the public document (libs/http splits every /admin path off).
 */
@ApiTags('admin')
@ApiErrorResponses(400, 401)
@UseGuards(AdminTokenGuard)
@Controller('admin/v1')
export class AdminController {
  constructor(private readonly identity: IdentityService) {}

  @Post('teams')
  @HttpCode(200)
  @ApiOperation({ operationId: 'adminCreateTeam', summary: 'Create a team' })
  @ApiOkResponse({ type: CreateTeamResponse })
  async createTeam(@Body() body: CreateTeamDto) {
    const team = await this.identity.createTeam(body.name);
    return { team: { id: team.id, name: team.name, createdAt: team.createdAt.toISOString() } };
  }

  @Post('teams/:teamId/projects')
  @HttpCode(200)
  @ApiOperation({ operationId: 'adminCreateProject', summary: 'Create a project in a team' })
  @ApiOkResponse({ type: CreateProjectResponse })
  @ApiErrorResponses(404)
  async createProject(@IdParam('teamId') teamId: string, @Body() body: CreateProjectDto) {
    const project = await notFoundAs404(() => this.identity.createProject(teamId, body.name));
    return {
      project: { id: project.id, teamId: project.teamId, name: project.name, createdAt: project.createdAt.toISOString() },
    };
  }

  @Post('api-keys')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminCreateApiKey',
    summary: 'Issue an API key for a team, or for one project of it; the secret is in this answer only',
  })
  @ApiOkResponse({ type: IssuedApiKeyResponse })
  @ApiErrorResponses(404)
  async createApiKey(@Body() body: CreateApiKeyDto) {
    const issued = await notFoundAs404(() => this.identity.createApiKey(body));
    return {
      apiKey: issued.key.id,
      apiSecret: issued.apiSecret,
      key: { ...issued.key, createdAt: issued.key.createdAt.toISOString() },
    };
  }

  /** Revokes a key (a leaked secret, a departed client); answering again for a revoked key keeps its time. */
  @Delete('api-keys/:keyId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminRevokeApiKey',
    summary: 'Revoke an API key for good (replicas that cached it accept it for up to AUTH_CACHE_TTL)',
  })
  @ApiOkResponse({ type: RevokeApiKeyResponse })
  @ApiErrorResponses(404)
  async revokeApiKey(@IdParam('keyId') keyId: string) {
    const revoked = await this.identity.revokeApiKey(keyId);
    if (!revoked) throw ApiError.notFound(`api key ${keyId}`);
    return { apiKey: { id: revoked.id, revokedAt: revoked.revokedAt.toISOString() } };
  }
}

async function notFoundAs404<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof IdentityNotFoundError) throw ApiError.notFound(error.message);
    throw error;
  }
}
