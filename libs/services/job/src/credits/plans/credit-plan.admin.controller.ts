import { Body, Controller, Put, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiError, IdParam } from '@genasset/http';
import type { CreditUsageView } from '../usage/credit-usage';
import { AdminTokenGate } from './admin-token.gate';
import { PutCreditPlanDto } from './dto/put-credit-plan.dto';
import { PutCreditPlan } from './put-credit-plan';

const TEAM_ID = /^team_[0-9A-Z]{26}$/;

/**
 * Operator route: `PUT /admin/v1/teams/{teamId}/credit-plan` with
 * `Authorization: Bearer <ADMIN_TOKEN>` → the team's usage in the period set.
 * Kept out of the public OpenAPI document, like the rest of `/admin/v1`.
 */
@ApiExcludeController()
@UseGuards(AdminTokenGate)
@Controller('admin/v1/teams/:teamId/credit-plan')
export class CreditPlanAdminController {
  constructor(private readonly putPlan: PutCreditPlan) {}

  @Put()
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
