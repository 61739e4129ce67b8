import { applyDecorators, Injectable, Param, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error';

/**
 * Every id the API takes in a path (and `projectId` in a query), by parameter
 * name: the prefix its ids carry (`prefixedId(prefix)` makes `<prefix>_<ULID>`)
 * and what it names. Upstream asset ids use other alphabets, so only the shape
 * is checked: the prefix, then 1–64 letters and digits.
 */
export const ID_PARAMS = {
  assetId: { prefix: 'asset', noun: 'an asset' },
  collectionId: { prefix: 'collection', noun: 'a collection' },
  jobId: { prefix: 'job', noun: 'a job' },
  modelId: { prefix: 'model', noun: 'a model' },
  /** Training images are the model's image assets. */
  trainingImageId: { prefix: 'asset', noun: 'an asset' },
  uploadId: { prefix: 'upload', noun: 'an upload' },
  presetId: { prefix: 'preset', noun: 'a model preset' },
  workflowId: { prefix: 'workflow', noun: 'a workflow' },
  webhookEndpointId: { prefix: 'we', noun: 'a webhook endpoint' },
  /** A delivery of the webhook log. */
  eventId: { prefix: 'whevent', noun: 'a webhook event' },
  teamId: { prefix: 'team', noun: 'a team' },
  projectId: { prefix: 'proj', noun: 'a project' },
  keyId: { prefix: 'key', noun: 'an API key' },
} as const;

export type IdParamName = keyof typeof ID_PARAMS;

const PATTERNS = new Map(
  Object.entries(ID_PARAMS).map(([name, { prefix }]) => [name, new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`)]),
);

/** The shape of `name`'s ids, for validators and the OpenAPI document. */
export function idPattern(name: IdParamName): RegExp {
  return PATTERNS.get(name)!;
}

/** "jobId must be a job id (job_ followed by letters and digits)". */
export function idMessage(name: IdParamName): string {
  const { prefix, noun } = ID_PARAMS[name];
  return `${name} must be ${noun} id (${prefix}_ followed by letters and digits)`;
}

/**
 * The one rule for a malformed id: a 400 `validation_error` naming the
 * parameter, before any lookup (a well-formed id that is unknown, or
 * another tenant's, stays a 404). For ids read outside a pipe (a guard).
 */
export function checkIdParam(name: IdParamName, value: unknown): string {
  if (typeof value !== 'string' || !idPattern(name).test(value)) {
    throw ApiError.validation([{ field: name, messages: [idMessage(name)] }]);
  }
  return value;
}

@Injectable()
class IdParamPipe implements PipeTransform<unknown, string> {
  constructor(private readonly name: IdParamName) {}
  transform(value: unknown): string {
    return checkIdParam(this.name, value);
  }
}

/**
 * `@IdParam('jobId') jobId: string`: the path parameter, checked by
 * {@link checkIdParam} and documented with its pattern. The check is
 * synchronous, so it settles before a body's (asynchronous) validation: a
 * malformed id is named even beside an invalid body.
 */
export function IdParam(name: IdParamName): ParameterDecorator {
  const param = Param(name, new IdParamPipe(name));
  const doc = ApiIdParam(name);
  return (target, key, index) => {
    param(target, key, index);
    // The method exists when its parameters are decorated: document it there.
    if (key !== undefined) doc(target, key, Object.getOwnPropertyDescriptor(target, key)!);
  };
}

/** Documents an id path parameter with its pattern (for parameters a guard reads). */
export function ApiIdParam(name: IdParamName, description?: string): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiParam({
      name,
      description,
      schema: { type: 'string', pattern: idPattern(name).source, example: `${ID_PARAMS[name].prefix}_01JD6Z3Q9V8K2M4N6P8R0T2V4X` },
    }),
  );
}
