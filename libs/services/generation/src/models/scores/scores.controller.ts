import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectScopes } from '../../generate/project-scope';
import { ModelsQuery } from '../dto/model.dto';
import { ScoresService } from './scores.service';

export class PromptScoreQuery extends ModelsQuery {
  @ApiPropertyOptional({ description: 'The prompt to score (absent: status unknown, score 0)' })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  prompt?: string;
}

const OPEN = { schema: { type: 'object', additionalProperties: true } } as const;

@ApiTags('Models')
@Authenticated()
@ApiErrorResponses(400, 401, 404)
@Controller('models/:modelId/scores')
export class ScoresController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly scores: ScoresService,
  ) {}

  @Get('training-dataset')
  @ApiOperation({ operationId: 'GetModelsScoresTrainingDatasetByModelId', summary: 'How well the training images may train (docs/models.md)' })
  @ApiOkResponse({ ...OPEN, description: '{ modelId, score, status, details, assetsWarnings?, assetCouplesWarnings? }' })
  async dataset(@CurrentPrincipal() p: Principal, @IdParam('modelId') modelId: string, @Query() query: ModelsQuery) {
    return this.scores.dataset(await this.scopes.resolve(p, query.projectId), modelId);
  }

  @Get('prompt')
  @ApiOperation({ operationId: 'GetModelsScoresPromptByModelId', summary: 'How well a prompt fits the model (docs/models.md)' })
  @ApiOkResponse({ ...OPEN, description: '{ modelId, score, status, details, syntaxError? }' })
  async prompt(@CurrentPrincipal() p: Principal, @IdParam('modelId') modelId: string, @Query() query: PromptScoreQuery) {
    return this.scores.prompt(await this.scopes.resolve(p, query.projectId), modelId, query.prompt);
  }
}
