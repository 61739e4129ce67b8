import { Body, Controller, Delete, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, IdParam } from '@genasset/http';
import { ProjectScopes } from '../../generate/project-scope';
import { ModelsQuery } from '../dto/model.dto';
import { ModelEmptyResponse } from '../dto/model-responses.dto';
import {
  DeleteImagesQuery,
  ReplaceTrainingImageBody,
  ReplaceTrainingImageResponse,
  TrainingImagePair,
  TrainingImagePairsResponse,
} from './training-image.dto';
import { TrainingImagesService } from './training-images.service';

@ApiTags('Models')
@Authenticated()
@ApiErrorResponses(400, 401, 403, 404, 409)
@Controller('models/:modelId')
export class TrainingImagesController {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly images: TrainingImagesService,
  ) {}

  @Put('training-images/pairs')
  @ApiOperation({ operationId: 'PutModelsTrainingImagesPairsByModelId', summary: 'Replace the training image pairs (instruction-editing models)' })
  @ApiBody({ type: [TrainingImagePair] })
  @ApiOkResponse({ type: TrainingImagePairsResponse })
  async pairs(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @Query() query: ModelsQuery,
    // An array body: checked field by field in the service (checkPairs), naming `[i].field`.
    @Body() body: unknown,
  ) {
    return this.images.setPairs(await this.scopes.resolve(p, query.projectId), modelId, body);
  }

  @Put('training-images/:trainingImageId')
  @ApiOperation({ operationId: 'PutModelsTrainingImagesByModelIdAndTrainingImageId', summary: 'Replace one training image' })
  @ApiOkResponse({ type: ReplaceTrainingImageResponse })
  async replace(
    @CurrentPrincipal() p: Principal,
    @IdParam('modelId') modelId: string,
    @IdParam('trainingImageId') trainingImageId: string,
    @Query() query: ModelsQuery,
    @Body() body: ReplaceTrainingImageBody,
  ) {
    return this.images.replace(await this.scopes.resolve(p, query.projectId), modelId, trainingImageId, body);
  }

  @Delete('images')
  @ApiOperation({ operationId: 'DeleteModelsImagesByModelId', summary: 'Remove training images by asset id (the assets stay)' })
  @ApiOkResponse({ type: ModelEmptyResponse, description: '{}' })
  async remove(@CurrentPrincipal() p: Principal, @IdParam('modelId') modelId: string, @Query() query: DeleteImagesQuery) {
    return this.images.remove(await this.scopes.resolve(p, query.projectId), modelId, query.ids);
  }
}
