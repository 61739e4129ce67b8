import { Body, Controller, Put, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError, ApiErrorResponses, IdParam } from '@genasset/http';
import type { CreditUsageView } from '../usage/credit-usage';
import { CreditUsageResponse } from '../usage/dto/credit-usage.response';
import { AdminTokenGate } from './admin-token.gate';
import { PutCreditPlanDto } from './dto/put-credit-plan.dto';
import { PutCreditPlan } from './put-credit-plan';

const TEAM_ID = /^team_[0-9A-Z]{26}$/;

/**
 * Operator route: `PUT /admin/v1/teams/{teamId}/credit-plan` with
 * `Authorization: Bearer <ADMIN_TOKEN>` → the team's usage in the period set.
 * In the admin API's document (/admin/v1/openapi.json), like the rest of `/admin/v1`.
 */
@ApiTags('admin')
@ApiErrorResponses(400, 401, 404)
@UseGuards(AdminTokenGate)
@Controller('admin/v1/teams/:teamId/credit-plan')
export class CreditPlanAdminController {
  constructor(private readonly putPlan: PutCreditPlan) {}

  @Put()
  @ApiOperation({
    operationId: 'adminPutCreditPlan',
    summary: "Set a team's creative units for a billing period; answers the team's usage in it",
  })
  @ApiOkResponse({ type: CreditUsageResponse })
  put(@IdParam('teamId') teamId: string, @Body() body: PutCreditPlanDto): Promise<CreditUsageView> {
    if (!TEAM_ID.test(teamId)) throw ApiError.notFound(`team ${teamId} not found`);
    return this.putPlan.execute({
      teamId,
      totalPeriodCreativeUnits: body.totalPeriodCreativeUnits,
      periodStart: new Date(body.periodStart),
      periodEnd: new Date(body.periodEnd),
    });
  }
}
