import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AccessPolicy, Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { CreditAlertSettings } from './credit-alert-settings';
import { CreditAlertsResponse, PutCreditAlertsDto } from './dto/credit-alerts.dto';

@ApiTags('credits')
@Controller('teams/:teamId/credit-alerts')
@Authenticated()
@ApiErrorResponses(401, 403, 404)
export class CreditAlertsController {
  constructor(
    private readonly settings: CreditAlertSettings,
    private readonly access: AccessPolicy,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getTeamCreditAlerts',
    summary: 'The team’s credit alert thresholds and their state in the current period (team admins)',
  })
  @ApiOkResponse({ type: CreditAlertsResponse })
  get(@CurrentPrincipal() principal: Principal, @IdParam('teamId') teamId: string) {
    this.access.assertTeamAdminOrScope(principal, teamId);
    return this.settings.get(teamId);
  }

  @Put()
  @ApiOperation({
    operationId: 'putTeamCreditAlerts',
    summary:
      'Replace the team’s credit alert thresholds: each sends team.credit.threshold.crossed when remaining units drop below it (team admins)',
  })
  @ApiOkResponse({ type: CreditAlertsResponse })
  @ApiErrorResponses(400)
  put(
    @CurrentPrincipal() principal: Principal,
    @IdParam('teamId') teamId: string,
    @Body() body: PutCreditAlertsDto,
  ) {
    this.access.assertTeamAdminOrScope(principal, teamId);
    return this.settings.put(teamId, body.thresholds);
  }
}
