import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InternalApiError, type JobView } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { InternalTokenGuard } from '@genasset/internal-api';
import { CreateJobDto, ModelJobCountsDto, TenantQueryDto } from './dto/create-job.dto';
import { JobsApiService } from './jobs-api.service';

/**
 * `JobsApi` over HTTP for services in other processes (`HttpJobsApi` in
 * libs/internal-api): `POST /internal/v1/jobs` → `{ job }`,
 * `GET /internal/v1/jobs/{jobId}?teamId=&projectId=` → `{ job }` or 404.
 * Only callers holding INTERNAL_API_TOKEN; never routed publicly, not in the OpenAPI document.
 */
@ApiExcludeController()
@Controller('internal/v1/jobs')
@UseGuards(InternalTokenGuard)
export class InternalJobsController {
  constructor(private readonly api: JobsApiService) {}

  @Post()
  @HttpCode(200)
  async create(@Body() command: CreateJobDto): Promise<{ job: JobView }> {
    return { job: await asHttp(() => this.api.createJob(command)) };
  }

  @Post('model-counts')
  @HttpCode(200)
  async modelCounts(@Body() body: ModelJobCountsDto): Promise<{ counts: Record<string, number> }> {
    return { counts: await this.api.modelJobCounts(body.tenant, body.modelIds) };
  }

  @Get(':jobId')
  async get(@Param('jobId') jobId: string, @Query() tenant: TenantQueryDto): Promise<{ job: JobView }> {
    const job = await asHttp(() => this.api.getJob(tenant, jobId));
    if (!job) throw ApiError.notFound('Job', jobId);
    return { job };
  }

  @Post(':jobId/cancel')
  @HttpCode(200)
  async cancel(@Param('jobId') jobId: string, @Body() tenant: TenantQueryDto): Promise<{ job: JobView }> {
    const job = await asHttp(() => this.api.cancelJob(tenant, jobId));
    if (!job) throw ApiError.notFound('Job', jobId);
    return { job };
  }
}

/** The internal API's errors keep their status, code and infos over HTTP (the client rebuilds them). */
async function asHttp<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof InternalApiError)
      throw new ApiError(error.status, error.apiError, error.message, error.infos, { cause: error });
    throw error;
  }
}
