import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectScopes } from '../../generate/project-scope';
import { ModelsQuery } from '../dto/model.dto';
import { ModelResponse } from '../dto/model-responses.dto';
import { CopyModelBody, TransferModelBody } from './copy.dto';
import { ModelCopyService } from './model-copy.service';

@ApiTags('Models')
@Authenticated()
@ApiErrorResponses(400, 401, 403, 404, 409)
@Controller('models/:modelId')
export class ModelCopyController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly copies: ModelCopyService,
  ) {}

  @Post('copy')
  @HttpCode(200)
  @ApiOperation({ operationId: 'PostModelsCopyByModelId', summary: 'Copy a model in its project (training images, pairs, presets, examples)' })
  @ApiOkResponse({ type: ModelResponse })
  async copy(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() body: CopyModelBody,
  ) {
    return this.copies.copy(await this.scopes.resolve(p, query.projectId), modelId, body);
  }

  @Post('transfer')
  @HttpCode(200)
  @ApiOperation({ operationId: 'PostModelsTransferByModelId', summary: 'Move a model to another project of the team, with its images and files' })
  @ApiOkResponse({ type: ModelResponse })
  async transfer(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() body: TransferModelBody,
  ) {
    const tenant = await this.scopes.resolve(p, query.projectId);
    // The destination as the credentials reach it: another team's project, or one a project key cannot reach, is a 404.
    const destination = await this.scopes.resolve(p, body.destinationProjectId);
    return this.copies.transfer(tenant, modelId, destination, body.destinationTeamId);
  }
}
