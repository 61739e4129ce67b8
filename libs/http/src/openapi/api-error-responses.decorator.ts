import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ApiErrorResponse } from '../errors/api-error-body';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the body names each offending field',
  401: 'Missing or invalid credentials',
  403: 'Credentials lack the required scope',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  422: 'Request understood but not processable',
  500: 'Internal error',
  503: 'Temporarily unavailable',
};

/** Documents the listed error statuses with the shared error body, e.g. `@ApiErrorResponses(400, 404)`. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status] ?? `Error ${status}`, type: ApiErrorResponse }),
    ),
  );
}
