import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ApiError, type FieldError } from '../errors/api-error';
import { unstorableMessage, unstorablePath } from '@genasset/contracts';

/**
 * The pipe every app uses: unknown properties are refused (not silently
 * dropped), ill-typed ones answered with a 400 that names each field, and a
 * NUL character or half a surrogate pair anywhere in a body, query or path
 * parameter is a 400 naming where it is (see unstorablePath): it would
 * otherwise surface as a 500 from whichever statement stores it.
 */
export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => ApiError.validation(flattenValidationErrors(errors)),
  });
}

class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const at = unstorablePath(value, metadata.data ?? '');
      if (at !== undefined) {
        const field = at || '(body)';
        throw ApiError.validation([{ field, messages: [unstorableMessage(field)] }]);
      }
    }
    return super.transform(value, metadata);
  }
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
