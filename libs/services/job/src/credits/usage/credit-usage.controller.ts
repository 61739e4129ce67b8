import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { assertTeamOrProjectAdmin } from '../team-access';
import { CreditUsage } from './credit-usage';
import { CreditUsageResponse } from './dto/credit-usage.response';

@ApiTags('credits')
@Controller('teams/:teamId/usage')
@Authenticated()
@ApiErrorResponses(401, 403, 404)
export class CreditUsageController {
  constructor(private readonly usage: CreditUsage) {}

  @Get()
  @ApiOperation({
    operationId: 'getTeamUsage',
    summary:
      'Creative units of the team’s current billing period: total, used, remaining (team or project admins)',
  })
  @ApiOkResponse({ type: CreditUsageResponse })
  get(@CurrentPrincipal() principal: Principal, @IdParam('teamId') teamId: string) {
    assertTeamOrProjectAdmin(principal, teamId);
    return this.usage.of(teamId);
  }
}
