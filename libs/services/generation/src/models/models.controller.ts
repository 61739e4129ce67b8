import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectScopes } from '../generate/project-scope';
import {
  AddTrainingImagesBody,
  CreateModelBody,
  DownloadModelBody,
  ListModelsQuery,
  ModelsQuery,
  ModelTagsBody,
  TrainBody,
  TrainQuery,
  TrainingActionBody,
  UpdateModelBody,
} from './dto/model.dto';
import {
  ModelAddTrainingImagesResponse,
  ModelDownloadResponse,
  ModelEmptyResponse,
  ModelListResponse,
  ModelResponse,
  ModelTagsResponse,
  ModelTrainDryRunResponse,
  ModelTrainingImagesResponse,
  ModelTrainResponse,
} from './dto/model-responses.dto';
import { ModelsService } from './models.service';
import { TrainingService } from './training.service';

@ApiTags('Models')
@Authenticated()
@ApiErrorResponses(400, 401, 403, 404, 409)
@ApiExtraModels(ModelTrainResponse, ModelTrainDryRunResponse)
@Controller('models')
export class ModelsController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly models: ModelsService,
    private readonly training: TrainingService,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'GetModels',
    summary: 'List the project’s models, or every team’s public models',
  })
  @ApiOkResponse({
    type: ModelListResponse,
    description: '{ models, nextPaginationToken? } (docs/models.md)',
  })
  async list(@CurrentPrincipal() p: Principal, @Query() query: ListModelsQuery) {
    return this.models.list(await this.scopes.resolve(p, query.projectId), query);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'PostModels', summary: 'Create a model' })
  @ApiOkResponse({ type: ModelResponse })
  async create(@CurrentPrincipal() p: Principal, @Query() query: ModelsQuery, @Body() body: CreateModelBody) {
    return this.models.create(await this.scopes.resolve(p, query.projectId), body);
  }

  @Get(':modelId')
  @ApiOperation({
    operationId: 'GetModelsByModelId',
    summary: 'A model, with its training status and progress',
  })
  @ApiOkResponse({ type: ModelResponse })
  async get(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
  ) {
    return this.models.get(await this.scopes.resolve(p, query.projectId), modelId);
  }

  @Put(':modelId')
  @ApiOperation({ operationId: 'PutModelsByModelId', summary: 'Update a model' })
  @ApiOkResponse({ type: ModelResponse })
  async update(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() body: UpdateModelBody,
  ) {
    return this.models.update(await this.scopes.resolve(p, query.projectId), modelId, body);
  }

  @Delete(':modelId')
  @ApiOperation({ operationId: 'DeleteModelsByModelId', summary: 'Delete a model (not while it trains)' })
  @ApiOkResponse({ type: ModelEmptyResponse, description: '{}' })
  async delete(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
  ) {
    return this.models.delete(await this.scopes.resolve(p, query.projectId), modelId);
  }

  @Put(':modelId/tags')
  @ApiOperation({ operationId: 'PutModelsTagsByModelId', summary: 'Add and/or delete tags' })
  @ApiOkResponse({ type: ModelTagsResponse })
  async tags(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() body: ModelTagsBody,
  ) {
    return this.models.tags(await this.scopes.resolve(p, query.projectId), modelId, body);
  }

  @Post(':modelId/training-images')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PostModelsTrainingImagesByModelId',
    summary: 'Add image assets as training images',
  })
  @ApiOkResponse({ type: ModelAddTrainingImagesResponse })
  async addImages(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() body: AddTrainingImagesBody,
  ) {
    return this.models.addTrainingImages(await this.scopes.resolve(p, query.projectId), modelId, body);
  }

  @Get(':modelId/training-images')
  @ApiOperation({
    operationId: 'GetModelsTrainingImagesByModelId',
    summary: 'Every training image of a model',
  })
  @ApiOkResponse({ type: ModelTrainingImagesResponse })
  async images(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
  ) {
    return this.models.trainingImages(await this.scopes.resolve(p, query.projectId), modelId);
  }

  @Delete(':modelId/training-images/:trainingImageId')
  @ApiOperation({
    operationId: 'DeleteModelsTrainingImagesByModelIdAndTrainingImageId',
    summary: 'Remove a training image (the asset stays)',
  })
  @ApiOkResponse({ type: ModelEmptyResponse, description: '{}' })
  async deleteImage(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @IdParam('trainingImageId') imageId: string,
    @Query() query: ModelsQuery,
  ) {
    return this.models.deleteTrainingImage(await this.scopes.resolve(p, query.projectId), modelId, imageId);
  }

  @Put(':modelId/train')
  @ApiOperation({ operationId: 'PutModelsTrainByModelId', summary: 'Start training the model (a job)' })
  // anyOf, not oneOf: a training answer also has the dry run's fields.
  @ApiOkResponse({
    description: '{ model, job, creativeUnitsCost, creativeUnitsDiscount } (dry run: the cost only)',
    schema: {
      anyOf: [{ $ref: getSchemaPath(ModelTrainResponse) }, { $ref: getSchemaPath(ModelTrainDryRunResponse) }],
    },
  })
  async train(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: TrainQuery,
    @Body() body: TrainBody,
  ) {
    const tenant = await this.scopes.resolve(p, query.projectId);
    const dryRun = query.dryRun === 'true' || query.dryRun === '1';
    return this.training.train(tenant, modelId, body.parameters, dryRun);
  }

  @Post(':modelId/train/action')
  @HttpCode(200)
  @ApiOperation({ operationId: 'PostModelTrainingActionByModelId', summary: 'Cancel the running training' })
  @ApiOkResponse({ type: ModelResponse })
  async action(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() _body: TrainingActionBody,
  ) {
    return this.training.cancel(await this.scopes.resolve(p, query.projectId), modelId);
  }

  @Post(':modelId/download')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PostDownloadModel',
    summary: 'Export the trained model files as a zip archive (a job)',
  })
  @ApiOkResponse({ type: ModelDownloadResponse })
  async download(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    @Body() _body: DownloadModelBody,
  ) {
    return this.training.download(await this.scopes.resolve(p, query.projectId), modelId);
  }
}
