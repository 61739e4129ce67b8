import { HttpException, HttpStatus } from '@nestjs/common';

/** Free-form details attached to an error (`infos` in the upstream body). */
export type ApiErrorInfos = Record<string, unknown>;

/**
 * Stable machine codes for `apiError`. Clients branch on these, so a code never
 * changes meaning once shipped; services may add their own strings.
 */
export const ApiErrorCode = {
  badRequest: 'bad_request',
  validation: 'validation_error',
  invalidJson: 'invalid_json',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  conflict: 'conflict',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  unprocessableEntity: 'unprocessable_entity',
  tooManyRequests: 'too_many_requests',
  internal: 'internal_error',
  notImplemented: 'not_implemented',
  serviceUnavailable: 'service_unavailable',
} as const;

export type KnownApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

/** Default code for a status when nothing more specific is known. */
export function apiErrorCodeForStatus(status: number): string {
  switch (status) {
    case HttpStatus.BAD_REQUEST:
      return ApiErrorCode.badRequest;
    case HttpStatus.UNAUTHORIZED:
      return ApiErrorCode.unauthorized;
    case HttpStatus.FORBIDDEN:
      return ApiErrorCode.forbidden;
    case HttpStatus.NOT_FOUND:
      return ApiErrorCode.notFound;
    case HttpStatus.METHOD_NOT_ALLOWED:
      return ApiErrorCode.methodNotAllowed;
    case HttpStatus.CONFLICT:
      return ApiErrorCode.conflict;
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return ApiErrorCode.payloadTooLarge;
    case HttpStatus.UNSUPPORTED_MEDIA_TYPE:
      return ApiErrorCode.unsupportedMediaType;
    case HttpStatus.UNPROCESSABLE_ENTITY:
      return ApiErrorCode.unprocessableEntity;
    case HttpStatus.TOO_MANY_REQUESTS:
      return ApiErrorCode.tooManyRequests;
    case HttpStatus.NOT_IMPLEMENTED:
      return ApiErrorCode.notImplemented;
    case HttpStatus.SERVICE_UNAVAILABLE:
      return ApiErrorCode.serviceUnavailable;
    default:
      return status >= 500 ? ApiErrorCode.internal : `http_${status}`;
  }
}

/** One invalid input field and what is wrong with it. */
export interface FieldError {
  /** Dotted path of the field, e.g. `url` or `items.0.url`. */
  field: string;
  messages: string[];
}

/**
 * The one error type services throw. The global filter renders it as the
 * upstream error body; its message and infos are shown to the client as they
 * are, so never put internals (SQL, stack, hostnames) in them.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly apiError: string,
    message: string,
    readonly infos: ApiErrorInfos = {},
    options?: { cause?: unknown },
  ) {
    super({ message, apiError, infos }, status, options);
    this.name = 'ApiError';
  }

  static badRequest(message: string, infos?: ApiErrorInfos): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, ApiErrorCode.badRequest, message, infos);
  }

  /** 400 naming every invalid field; `infos.fields` maps field → messages. */
  static validation(errors: FieldError[]): ApiError {
    // A Map, not a plain object: a field named toString or __proto__ must not meet Object.prototype.
    const byField = new Map<string, string[]>();
    for (const e of errors) byField.set(e.field, [...(byField.get(e.field) ?? []), ...e.messages]);
    const fields: Record<string, string[]> = Object.fromEntries(byField);
    const message = errors.flatMap((e) => e.messages).join('; ') || 'Invalid request';
    return new ApiError(HttpStatus.BAD_REQUEST, ApiErrorCode.validation, message, { fields });
  }

  static unauthorized(message = 'Authentication required'): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, ApiErrorCode.unauthorized, message);
  }

  static forbidden(message = 'Forbidden'): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, ApiErrorCode.forbidden, message);
  }

  /**
   * `ApiError.notFound('Asset', id)` → "Asset not found" with `infos.id`. A
   * full sentence already ending in "not found" is kept as it is.
   */
  static notFound(what: string, id?: string): ApiError {
    const message = /\bnot found$/i.test(what) ? what : `${what} not found`;
    return new ApiError(HttpStatus.NOT_FOUND, ApiErrorCode.notFound, message, id === undefined ? {} : { id });
  }

  static conflict(message: string, infos?: ApiErrorInfos): ApiError {
    return new ApiError(HttpStatus.CONFLICT, ApiErrorCode.conflict, message, infos);
  }

  static unprocessable(message: string, infos?: ApiErrorInfos): ApiError {
    return new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, ApiErrorCode.unprocessableEntity, message, infos);
  }

  static payloadTooLarge(message = 'Request body is too large', infos?: ApiErrorInfos): ApiError {
    return new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, ApiErrorCode.payloadTooLarge, message, infos);
  }

  /**
   * 415 naming the media type the API reads (`expected`) and, when there was
   * one, the type the client sent: form posts and `curl -d` send
   * application/x-www-form-urlencoded.
   */
  static unsupportedMediaType(expected: string, received?: string): ApiError {
    const sent = received ? `Content-Type ${received} is not accepted` : 'A request body needs a Content-Type';
    return new ApiError(
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      ApiErrorCode.unsupportedMediaType,
      `${sent}: send the body as JSON with Content-Type: ${expected}`,
      received ? { expected, received } : { expected },
    );
  }

  static tooManyRequests(message = 'Too many requests', infos?: ApiErrorInfos): ApiError {
    return new ApiError(HttpStatus.TOO_MANY_REQUESTS, ApiErrorCode.tooManyRequests, message, infos);
  }

  static serviceUnavailable(message = 'Service unavailable', infos?: ApiErrorInfos): ApiError {
    return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, ApiErrorCode.serviceUnavailable, message, infos);
  }

  /** The generic 500 body; the cause is logged, never sent. */
  static internal(cause?: unknown): ApiError {
    return new ApiError(
      HttpStatus.INTERNAL_SERVER_ERROR,
      ApiErrorCode.internal,
      'Internal server error',
      {},
      { cause },
    );
  }
}
