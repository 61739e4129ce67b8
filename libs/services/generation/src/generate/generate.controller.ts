import {
  applyDecorators,
  Body,
  Controller,
  HttpCode,
  Inject,
  Post,
  Query,
  Res,
  type Type,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal, type Principal } from '@genasset/auth';
import { ApiErrorResponses, CHECKED_BODY_METADATA } from '@genasset/http';
import { GenerateAssetsQuery, GenerateQuery } from './dto/generate.query';
import * as Responses from './dto/responses.dto';
import { GenerateService, DRY_RUN_STATUS } from './generate.service';
import { GENERATE_LIMITS } from './limits';
import type { ModeDefinition, ResponseKind } from './modes/mode-definition';

const RESPONSE_TYPES: Record<Exclude<ResponseKind, 'inference'>, Type<unknown>> = {
  job: Responses.JobAndBillingGenerateResponse,
  'job-asset': Responses.JobAndAssetAndBillingGenerateResponse,
  caption: Responses.CaptionGenerateResponse,
  'describe-style': Responses.DescribeStyleGenerateResponse,
  embed: Responses.EmbedGenerateResponse,
  prompt: Responses.PromptGenerateResponse,
  translate: Responses.TranslateGenerateResponse,
  segment: Responses.SegmentGenerateResponse,
};

/** Upstream operation ids (PostTxt2imgIpAdapterInferences…), so generated clients keep their names. */
export function operationId(mode: ModeDefinition): string {
  const pascal = mode.name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return `Post${pascal}Inferences`;
}

/**
 * `inference`, the echo of the request (see inferenceEcho): its own schema, not
 * the body's — the echo leaves `modelId` out, carries images as asset ids or
 * stored-input keys (not data URLs) with their `…Id` companions, and adds `type`.
 */
function inferenceEchoSchema(mode: ModeDefinition) {
  return {
    type: 'object',
    description: `The request (${mode.body.name}) as the job holds it: the fields given, without modelId, images as asset ids or stored-input keys, and the inference type`,
    required: ['type'],
    properties: {
      type: { type: 'string', enum: [mode.inferenceType] },
      prompt: { type: 'string' },
      imageId: { type: 'string', description: 'The input image, when it was an asset' },
      maskId: { type: 'string', description: 'The mask, when it was an asset' },
      controlImageId: { type: 'string', description: 'The ControlNet image, when it was an asset' },
    },
    additionalProperties: true,
  };
}

function okResponse(mode: ModeDefinition) {
  if (mode.response !== 'inference') return ApiOkResponse({ type: RESPONSE_TYPES[mode.response] });
  return ApiOkResponse({
    description: 'The job, the billing and `inference`, the echo of the request with its inference type',
    schema: {
      allOf: [
        { $ref: getSchemaPath(Responses.JobAndBillingGenerateResponse) },
        {
          type: 'object',
          required: ['inference'],
          properties: { inference: inferenceEchoSchema(mode) },
        },
      ],
    },
  });
}

/** The decorators of one mode's route: path, body, statuses, OpenAPI description. */
function routeDecorators(mode: ModeDefinition) {
  return applyDecorators(
    Post(mode.name),
    HttpCode(200),
    // Data-URL images do not fit the app's 1 MiB body limit.
    RouteConfig({ bodyLimit: GENERATE_LIMITS.bodyBytes }),
    ApiOperation({
      summary: mode.summary,
      operationId: operationId(mode),
      deprecated: mode.deprecated === true,
    }),
    ApiBody({ type: mode.body }),
    okResponse(mode),
    ApiResponse({
      status: DRY_RUN_STATUS,
      description: 'Dry run (dryRun=true): the cost; nothing created or charged',
      type: Responses.GenerateDryRunResponse,
    }),
  );
}

/**
 * Builds the controller of every mode of the registry: one route per entry,
 * `POST /v1/generate/{mode}`, with the mode's body class (validated by the
 * global pipe), its query (with `originalAssets` where the spec lists it) and
 * its OpenAPI description. Each route calls GenerateService with its mode.
 */
export function createGenerateController(modes: readonly ModeDefinition[]): Type<unknown> {
  @ApiTags('generate')
  @Controller('generate')
  @Authenticated()
  @ApiExtraModels(...Object.values(RESPONSE_TYPES), Responses.GenerateDryRunResponse)
  @ApiErrorResponses(400, 401, 402, 404, 413, 503)
  class GenerateController {
    constructor(@Inject(GenerateService) readonly generation: GenerateService) {}
  }

  const proto = GenerateController.prototype as unknown as Record<string, unknown>;
  for (const mode of modes) {
    const key = `generate_${mode.name.replace(/-/g, '_')}`;
    const handler = function (
      this: GenerateController,
      principal: Principal,
      query: GenerateQuery,
      body: object,
      reply: FastifyReply,
    ) {
      return this.generation.generate(mode, principal, query, body, reply);
    };
    // Named like the key: the OpenAPI explorer reads parameter types by the function's name.
    Object.defineProperty(handler, 'name', { value: key });
    Object.defineProperty(proto, key, { value: handler, writable: true, configurable: true });
    // What TypeScript would emit for a declared method: the pipe validates by these types.
    Reflect.defineMetadata(
      'design:paramtypes',
      // A mode taking presets checks its body once the preset is applied (GenerateService.bodyOf): plain JSON here.
      [Object, mode.originalAssets ? GenerateAssetsQuery : GenerateQuery, mode.presets ? Object : mode.body, Object],
      proto,
      key,
    );
    // ...and checks it whole against the mode's body class with the apps' pipe (closed in the OpenAPI document as well).
    if (mode.presets) Reflect.defineMetadata(CHECKED_BODY_METADATA, mode.body, proto, key);
    CurrentPrincipal()(proto, key, 0);
    Query()(proto, key, 1);
    Body()(proto, key, 2);
    Res({ passthrough: true })(proto, key, 3);
    routeDecorators(mode)(proto, key, Object.getOwnPropertyDescriptor(proto, key)!);
  }
  return GenerateController;
}
