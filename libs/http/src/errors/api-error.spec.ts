import { HttpStatus, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { ApiError } from './api-error';
import { toApiError } from './to-api-error';

describe('ApiError helpers', () => {
  it.each([
    [ApiError.badRequest('bad', { a: 1 }), 400, 'bad_request', 'bad', { a: 1 }],
    [ApiError.unauthorized(), 401, 'unauthorized', 'Authentication required', {}],
    [ApiError.forbidden('no'), 403, 'forbidden', 'no', {}],
    [ApiError.notFound('Asset', 'asset_1'), 404, 'not_found', 'Asset not found', { id: 'asset_1' }],
    [ApiError.notFound('project p1 not found'), 404, 'not_found', 'project p1 not found', {}],
    [ApiError.conflict('dup'), 409, 'conflict', 'dup', {}],
    [ApiError.payloadTooLarge(), 413, 'payload_too_large', 'Request body is too large', {}],
    [ApiError.unprocessable('mixed'), 422, 'unprocessable_entity', 'mixed', {}],
    [ApiError.tooManyRequests(), 429, 'too_many_requests', 'Too many requests', {}],
    [ApiError.serviceUnavailable(), 503, 'service_unavailable', 'Service unavailable', {}],
    [ApiError.internal(new Error('x')), 500, 'internal_error', 'Internal server error', {}],
  ])('%#: builds status, code, message and infos', (error, status, code, message, infos) => {
    expect([error.getStatus(), error.apiError, error.message, error.infos]).toEqual([
      status,
      code,
      message,
      infos,
    ]);
  });

  it('groups validation messages by field', () => {
    const error = ApiError.validation([
      { field: 'url', messages: ['url must be a URL address'] },
      { field: 'url', messages: ['url should not be empty'] },
    ]);
    expect(error.message).toBe('url must be a URL address; url should not be empty');
    expect(error.infos).toEqual({
      fields: { url: ['url must be a URL address', 'url should not be empty'] },
    });
  });

  it('names fields called like Object.prototype members as any other', () => {
    const error = ApiError.validation([
      { field: 'toString', messages: ['toString is required'] },
      { field: '__proto__', messages: ['__proto__ should not exist'] },
    ]);
    const fields = (error.infos as { fields: Record<string, string[]> }).fields;
    expect(Object.keys(fields)).toEqual(['toString', '__proto__']);
    expect(fields.toString).toEqual(['toString is required']);
    expect(JSON.parse(JSON.stringify(error.infos))).toEqual({
      fields: { toString: ['toString is required'], ['__proto__']: ['__proto__ should not exist'] },
    });
  });
});

describe('toApiError', () => {
  it('keeps client error messages from Nest exceptions', () => {
    expect(toApiError(new NotFoundException('Cannot GET /x'))).toMatchObject({
      apiError: 'not_found',
      message: 'Cannot GET /x',
    });
  });

  it('keeps a server status but not its text', () => {
    const error = toApiError(new ServiceUnavailableException('db at 10.0.0.5 down'));
    expect([error.getStatus(), error.apiError, error.message]).toEqual([
      HttpStatus.SERVICE_UNAVAILABLE,
      'service_unavailable',
      'Service unavailable',
    ]);
  });

  it('hides anything that is not an HTTP error', () => {
    for (const thrown of [
      new Error('secret'),
      'a string',
      { statusCode: 400 },
      Object.assign(new Error('x'), { statusCode: 502 }),
    ]) {
      expect(toApiError(thrown)).toMatchObject({
        apiError: 'internal_error',
        message: 'Internal server error',
      });
    }
  });
});
