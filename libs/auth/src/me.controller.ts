import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '@genasset/http';
import { ROLES, SCOPES, type Role, type Scope } from '@genasset/identity';
import { Authenticated, CurrentPrincipal } from './auth.decorators';
import { requireApiKey } from './access-policy';
import type { Principal } from './principal';

export class MeApiKey {
  @ApiProperty({ example: 'key_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  id!: string;

  @ApiProperty({ example: 'team_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  teamId!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'proj_01JD6Z3Q9V8K2M4N6P8R0T2V4X',
    description: 'null for a team-level key',
  })
  projectId!: string | null;

  @ApiProperty({ enum: ROLES })
  role!: Role;

  @ApiProperty({ enum: SCOPES, isArray: true })
  scopes!: Scope[];
}

export class MeResponse {
  @ApiProperty({ type: MeApiKey })
  apiKey!: MeApiKey;
}

/** Lets a client check its credentials and see what they grant. Never returns the secret. */
@ApiTags('auth')
@Controller('me')
export class MeController {
  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'The API key making the request: its team, project, role and scopes' })
  @ApiOkResponse({ type: MeResponse })
  // No credentials, wrong ones, or the public-asset token (not an API key).
  @ApiErrorResponses(401)
  me(@CurrentPrincipal() principal: Principal): MeResponse {
    const key = requireApiKey(principal);
    return { apiKey: { id: key.keyId, teamId: key.teamId, projectId: key.projectId, role: key.role, scopes: key.scopes } };
  }
}
