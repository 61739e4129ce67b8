import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { renderErrorBody } from './api-error-body';
import { toApiError } from './to-api-error';

/**
 * Renders every error of an HTTP request — thrown by a handler, a guard, the
 * validation pipe, Fastify's body parser or the not-found handler — as the
 * upstream error body. Server errors are logged with their cause and the
 * error id the client sees; client errors are already in the request log.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const error = toApiError(exception);
    const body = renderErrorBody(error);
    const status = error.getStatus();
    if (status >= 500) {
      const cause = error.cause ?? exception;
      this.logger.error(
        { err: cause instanceof Error ? cause : new Error(String(cause)), errorId: body.id, status },
        'request failed',
      );
    }
    if (reply.sent) return;
    // A 503 is worth retrying (an overloaded database, a dependency not ready): say when.
    // `infos.retryAfter` (seconds), when the thrower knows better (a search model backing off).
    const retryAfter = (error.infos as { retryAfter?: unknown }).retryAfter;
    if (status === 503 && !reply.hasHeader('retry-after'))
      void reply.header('retry-after', typeof retryAfter === 'number' && retryAfter > 0 ? String(Math.ceil(retryAfter)) : '1');
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}
