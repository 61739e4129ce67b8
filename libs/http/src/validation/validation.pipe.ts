import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError, type FieldError } from '../errors/api-error';

/**
 * The pipe every app uses: unknown properties are refused (not silently
 * dropped) and ill-typed ones answered with a 400 that names each field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => ApiError.validation(flattenValidationErrors(errors)),
  });
}

/**
 * Flattens class-validator's tree into one entry per invalid field with a
 * dotted path (`items.0.url`), prefixing nested messages with their parent so
 * each message names the full field on its own.
 */
export function flattenValidationErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const field = parentPath ? `${parentPath}.${error.property}` : error.property || '(body)';
    const messages = Object.values(error.constraints ?? {}).map((m) =>
      parentPath ? `${parentPath}.${m}` : m,
    );
    if (messages.length) result.push({ field, messages });
    if (error.children?.length) result.push(...flattenValidationErrors(error.children, field));
  }
  return result;
}
