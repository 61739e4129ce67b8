import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses } from '@genasset/http';
import { UsagesQuery } from './usages.query';
import { UsagesResponse } from './usages.response';
import { UsagesService } from './usages.service';

@ApiTags('credits')
@Controller('usages')
@Authenticated()
@ApiErrorResponses(400, 401, 404)
export class UsagesController {
  constructor(private readonly usages: UsagesService) {}

  @Get()
  @ApiOperation({
    operationId: 'GetUsages',
    summary:
      'Creative units and produced assets over a period (at most 120 days), per point, per author, and the charges (project key: its project; team-level key: its team)',
  })
  @ApiOkResponse({ type: UsagesResponse })
  get(@CurrentPrincipal() principal: Principal, @Query() query: UsagesQuery) {
    return this.usages.get(principal, query);
  }
}
