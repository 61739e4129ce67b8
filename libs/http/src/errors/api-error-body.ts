import { randomUUID } from 'node:crypto';
import { ApiProperty } from '@nestjs/swagger';
import type { ApiError, ApiErrorInfos } from './api-error';

/**
 * Error body of every non-2xx API response. Mirrors the upstream reference
 * (`BadRequestResponse`, `NotFoundResponse`, ... all share these six required
 * properties), so clients written against it parse our errors unchanged.
 */
export interface ApiErrorBody {
  /** Unique id of this occurrence; also logged, so support can find it. */
  id: string;
  /** Human-readable message. */
  error: string;
  /** Stable machine code, e.g. `validation_error`, `not_found`. */
  apiError: string;
  /** Details; for validation errors `{ fields: { name: [messages] } }`. */
  infos: ApiErrorInfos;
  createdAt: string;
  updatedAt: string;
}

/** OpenAPI schema of {@link ApiErrorBody}, for `@ApiResponse({ type })`. */
export class ApiErrorResponse implements ApiErrorBody {
  @ApiProperty({ example: '0f8c1f5e-3a53-4d5c-9f4e-5b2e4a7d1c9a' })
  id!: string;

  @ApiProperty({ example: 'url must be a URL address' })
  error!: string;

  @ApiProperty({ example: 'validation_error' })
  apiError!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { fields: { url: ['url must be a URL address'] } },
  })
  infos!: ApiErrorInfos;

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  updatedAt!: string;
}

export function renderErrorBody(error: ApiError, now: Date = new Date()): ApiErrorBody {
  const at = now.toISOString();
  return {
    id: randomUUID(),
    error: error.message,
    apiError: error.apiError,
    infos: error.infos,
    createdAt: at,
    updatedAt: at,
  };
}
