import { HttpException, HttpStatus } from '@nestjs/common';
import { errorCodes } from 'fastify';
import { JSON_MEDIA_TYPE } from '../bootstrap/json-body';
import { ApiError, ApiErrorCode, apiErrorCodeForStatus } from './api-error';

/**
 * Maps anything thrown while handling a request to an {@link ApiError}.
 * Only client errors (4xx) keep their message; anything else becomes the
 * generic 500 so no internal detail reaches the client.
 */
export function toApiError(exception: unknown): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) return fromHttpException(exception);
  const status = clientErrorStatus(exception);
  if (status !== undefined) return fromFrameworkError(exception as Error & { code?: unknown }, status);
  if (isDatabaseBusy(exception))
    return new ApiError(
      HttpStatus.SERVICE_UNAVAILABLE,
      ApiErrorCode.serviceUnavailable,
      'The service is busy: try again in a moment',
      {},
      { cause: exception },
    );
  return ApiError.internal(exception);
}

/**
 * Prisma's "timed out fetching a connection from the pool" (P2024) and "unable
 * to start a transaction in the given time" (P2028): the database is
 * overloaded, nothing was written, and the same request may well succeed a
 * moment later — a 503 the client can retry, not a 500. Matched by name and
 * code because each service has its own generated Prisma client class.
 */
function isDatabaseBusy(exception: unknown): boolean {
  if (!(exception instanceof Error) || exception.name !== 'PrismaClientKnownRequestError') return false;
  const code = (exception as { code?: unknown }).code;
  return code === 'P2024' || code === 'P2028';
}

const INVALID_JSON_MESSAGE = new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY().message;

function fromHttpException(exception: HttpException): ApiError {
  const status = exception.getStatus();
  if (status >= 500) {
    // Keep the status (503 from a dependency is meaningful) but not the text.
    if (status === HttpStatus.INTERNAL_SERVER_ERROR) return ApiError.internal(exception);
    return new ApiError(
      status,
      apiErrorCodeForStatus(status),
      defaultMessage(status),
      {},
      { cause: exception },
    );
  }
  // Fastify refuses a Content-Type header it cannot read before any parser runs.
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) return ApiError.unsupportedMediaType(JSON_MEDIA_TYPE);
  const response = exception.getResponse();
  const messages = responseMessages(response, exception.message);
  // Nest turns Fastify's parser errors into a bare HttpException(message, status),
  // dropping their `code`; the message is all that identifies bad JSON.
  if (status === HttpStatus.BAD_REQUEST && messages[0] === INVALID_JSON_MESSAGE) {
    return new ApiError(
      status,
      ApiErrorCode.invalidJson,
      'Request body is not valid JSON',
      {},
      { cause: exception },
    );
  }
  // Nest's stock ValidationPipe (if someone uses it) reports a list of messages.
  if (status === HttpStatus.BAD_REQUEST && messages.length > 1) {
    return new ApiError(
      status,
      ApiErrorCode.validation,
      messages.join('; '),
      { messages },
      { cause: exception },
    );
  }
  return new ApiError(
    status,
    apiErrorCodeForStatus(status),
    messages[0] ?? defaultMessage(status),
    {},
    { cause: exception },
  );
}

/** Fastify reports body parsing problems as plain errors carrying a 4xx `statusCode`. */
function fromFrameworkError(error: Error & { code?: unknown }, status: number): ApiError {
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) return ApiError.unsupportedMediaType(JSON_MEDIA_TYPE);
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new ApiError(
      status,
      ApiErrorCode.invalidJson,
      'Request body is not valid JSON',
      {},
      { cause: error },
    );
  }
  return new ApiError(
    status,
    apiErrorCodeForStatus(status),
    error.message || defaultMessage(status),
    {},
    { cause: error },
  );
}

function clientErrorStatus(exception: unknown): number | undefined {
  if (!(exception instanceof Error)) return undefined;
  const status = (exception as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

function responseMessages(response: string | object, fallback: string): string[] {
  if (typeof response === 'string') return [response];
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return [message];
  if (Array.isArray(message)) return message.filter((m): m is string => typeof m === 'string');
  return fallback ? [fallback] : [];
}

function defaultMessage(status: number): string {
  switch (status) {
    case HttpStatus.SERVICE_UNAVAILABLE:
      return 'Service unavailable';
    case HttpStatus.NOT_IMPLEMENTED:
      return 'Not implemented';
    case HttpStatus.GATEWAY_TIMEOUT:
      return 'Gateway timeout';
    case HttpStatus.BAD_GATEWAY:
      return 'Bad gateway';
    default:
      return status >= 500 ? 'Internal server error' : 'Request failed';
  }
}
