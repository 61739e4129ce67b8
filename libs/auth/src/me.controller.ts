import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from './auth.decorators';
import { requireApiKey } from './access-policy';
import type { Principal } from './principal';

/** Lets a client check its credentials and see what they grant. Never returns the secret. */
@ApiTags('auth')
@Controller('me')
export class MeController {
  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'The API key making the request: its team, project, role and scopes' })
  @ApiOkResponse({ description: '{ apiKey: { id, teamId, projectId, role, scopes } }' })
  me(@CurrentPrincipal() principal: Principal) {
    const key = requireApiKey(principal);
    return { apiKey: { id: key.keyId, teamId: key.teamId, projectId: key.projectId, role: key.role, scopes: key.scopes } };
  }
}
