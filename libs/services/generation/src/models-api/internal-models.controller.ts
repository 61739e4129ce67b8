import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
  IsObject,
} from 'class-validator';
import { MODELS_API, type ModelsApi, type TagCount } from '@genasset/contracts';
import { InternalTokenGuard } from '@genasset/internal-api';

class TenantRefDto {
  @IsString() teamId!: string;
  @IsString() projectId!: string;
  @IsOptional() @IsString() authorId?: string;
}

class ExistingModelsRequest {
  @IsObject() @ValidateNested() @Type(() => TenantRefDto) tenant!: TenantRefDto;
  // Callers batch their own requests (collections: 49 ids); the cap only bounds one query.
  @IsArray() @ArrayMaxSize(1000) @IsString({ each: true }) modelIds!: string[];
}

class TagCountsRequest {
  @IsObject() @ValidateNested() @Type(() => TenantRefDto) tenant!: TenantRefDto;
  @IsOptional() @IsString() after?: string;
  @IsInt() @Min(1) @Max(1000) limit!: number;
}

/** ModelsApi over HTTP for services in other processes (HttpModelsApi in libs/internal-api). */
@ApiExcludeController()
@UseGuards(InternalTokenGuard)
@Controller('internal/v1/models')
export class InternalModelsController {
  constructor(@Inject(MODELS_API) private readonly models: ModelsApi) {}

  @Post('existing')
  @HttpCode(200)
  async existing(@Body() body: ExistingModelsRequest): Promise<{ modelIds: string[] }> {
    return { modelIds: await this.models.existing(body.tenant, body.modelIds) };
  }

  @Post('tag-counts')
  @HttpCode(200)
  async tagCounts(@Body() body: TagCountsRequest): Promise<{ tags: TagCount[] }> {
    return { tags: await this.models.tagCounts(body.tenant, { after: body.after, limit: body.limit }) };
  }
}
