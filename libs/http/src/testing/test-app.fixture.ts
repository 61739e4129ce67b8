import { Writable } from 'node:stream';
import {
  Body,
  Controller,
  Delete,
  Get,
  Injectable,
  Logger,
  Module,
  type OnModuleInit,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiBody, ApiParam, ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsUrl, Max, Min, ValidateNested } from 'class-validator';
import { createHttpApp } from '../bootstrap/create-http-app';
import { ApiError } from '../errors/api-error';
import { IdParam } from '../validation/id-param';
import { ReadinessRegistry } from '../health/readiness.registry';

class ItemDto {
  @IsUrl()
  url!: string;
}

export class CreateThingDto {
  @ApiProperty()
  @IsUrl()
  url!: string;

  @ApiProperty({ required: false })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  count?: number;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => ItemDto)
  items?: ItemDto[];
}

/** A list route's query, as the services declare one. */
export class ListThingsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  pageSize?: number;
}

/** Documented body of a route that reads its body as it comes (no DTO validation). */
export class OpenThingDto {
  @ApiProperty()
  anything!: string;
}

/** Mutable per test: what the readiness check does. */
export const readiness = { fail: false, hang: false };

@Injectable()
class FakeDependency implements OnModuleInit {
  constructor(private readonly registry: ReadinessRegistry) {}
  onModuleInit(): void {
    this.registry.register(
      'fake-db',
      async () => {
        if (readiness.hang) await new Promise((resolve) => setTimeout(resolve, 5000).unref());
        if (readiness.fail) throw new Error('connection refused');
      },
      { timeoutMs: 200 },
    );
  }
}

@Controller('things')
class ThingsController {
  private readonly logger = new Logger('Things');

  /** Logs after waiting `ms` (and on its way in): what a slow handler's lines carry. */
  @Get('slow')
  async slow(@Query('ms') ms = '0'): Promise<{ waited: number }> {
    this.logger.log('slow started');
    await new Promise((resolve) => setTimeout(resolve, Number(ms)));
    this.logger.log('slow finished');
    return { waited: Number(ms) };
  }

  @Get()
  list(@Query() query: ListThingsQuery): { pageSize: number | null } {
    return { pageSize: query.pageSize ?? null };
  }

  @Post()
  create(@Body() body: CreateThingDto): { received: CreateThingDto; isInstance: boolean } {
    return { received: body, isInstance: body instanceof CreateThingDto };
  }

  /** Takes no body: what a DELETE sent by a client that always sets a JSON content type reaches. */
  @Delete('one')
  remove(@Body() body: unknown): { deleted: true; body: unknown } {
    return { deleted: true, body: body ?? null };
  }

  /** An optional body: absent is not the same as `{}`. */
  @Put('one')
  replace(@Body() body: unknown): { body: unknown } {
    return { body: body ?? null };
  }

  /** The body is taken as it comes: the pipe does not refuse unknown properties here. */
  @Post('open')
  @ApiBody({ type: OpenThingDto })
  open(@Body() body: unknown): { received: unknown } {
    return { received: body };
  }

  /** A path parameter documented by name and description only (no type). */
  @Get('owners/:ownerId')
  @ApiParam({ name: 'ownerId', description: 'The owner' })
  owner(): { ok: true } {
    return { ok: true };
  }

  /** A resource id in the path, checked by the shared rule. */
  @Get('jobs/:jobId')
  job(@IdParam('jobId') jobId: string): { jobId: string } {
    return { jobId };
  }

  /** An id and a body: the id is judged first. */
  @Put('jobs/:jobId')
  updateJob(@Body() body: CreateThingDto, @IdParam('jobId') jobId: string): { jobId: string; url: string } {
    return { jobId, url: body.url };
  }

  @Get('conflict')
  conflict(): never {
    throw ApiError.conflict('Thing already exists', { url: 'https://example.com' });
  }

  @Get('missing')
  missing(): never {
    throw ApiError.notFound('Thing', 'thing_1');
  }

  /** What Prisma throws when no connection or transaction could be had in time (an overloaded database). */
  @Get('busy')
  busy(): never {
    throw Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2028',
    });
  }

  @Get('boom')
  boom(): never {
    throw new Error('password=hunter2 at db.internal:5432');
  }
}

@Module({ controllers: [ThingsController], providers: [FakeDependency] })
class ThingsModule {}

/** Collects the JSON log lines an app writes. */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    callback();
  }
}

export async function createTestApp(
  logs = new LogCapture(),
  bodyLimitBytes = 1024,
  logLevel = 'info',
): Promise<NestFastifyApplication> {
  const app = await createHttpApp(ThingsModule, {
    serviceName: 'test-service',
    logLevel,
    openapi: { title: 'Test API', description: 'for tests' },
    bodyLimitBytes,
    logDestination: logs,
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
