import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { CustomGenerateBody } from './dto/custom.dto';
import { GenerateQuery } from './dto/generate.query';
import { GenerateDryRunResponse, JobAndBillingGenerateResponse } from './dto/responses.dto';
import { CustomGenerateService } from './custom-generate.service';
import { GENERATE_LIMITS } from './limits';

@ApiTags('generate')
@Controller('generate/custom')
@Authenticated()
@ApiExtraModels(JobAndBillingGenerateResponse, GenerateDryRunResponse)
export class CustomGenerateController {
  constructor(private readonly custom: CustomGenerateService) {}

  @Post(':modelId')
  @HttpCode(200)
  @RouteConfig({ bodyLimit: GENERATE_LIMITS.bodyBytes })
  @ApiOperation({
    operationId: 'PostGenerateCustom',
    summary:
      'Generate with any model (image, video, audio, 3D); the inputs are those of GET /v1/models/{modelId}',
    description:
      'With dryRun=true the answer is 200 with { creativeUnitsCost, creativeUnitsDiscount } and nothing is created.',
  })
  @ApiBody({
    type: CustomGenerateBody,
    description: 'The model’s inputs; the fields below are checked when given, the others go to the model',
  })
  // anyOf, not oneOf: a job answer also has the dry run's fields, so it matches both.
  @ApiOkResponse({
    description: 'The job and the billing; with dryRun=true, the billing only (nothing created)',
    schema: {
      anyOf: [
        { $ref: getSchemaPath(JobAndBillingGenerateResponse) },
        { $ref: getSchemaPath(GenerateDryRunResponse) },
      ],
    },
  })
  @ApiErrorResponses(400, 401, 402, 404, 413, 503)
  generate(
    @CurrentPrincipal() principal: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: GenerateQuery,
    // Typed `unknown` on purpose: the global pipe leaves it alone (the model decides its fields).
    @Body() body: unknown,
  ) {
    return this.custom.generate(modelId, principal, query, body);
  }
}
