import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ApiError, type FieldError } from '../errors/api-error';

/**
 * The pipe every app uses: unknown properties are refused (not silently
 * dropped), ill-typed ones answered with a 400 that names each field, and a
 * NUL character anywhere in a body, query or path parameter is a 400 naming
 * where it is: PostgreSQL's text and jsonb cannot hold U+0000, so it would
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
      const at = nulPath(value, metadata.data ?? '');
      if (at !== undefined) {
        const field = at || '(body)';
        throw ApiError.validation([
          { field, messages: [`${field} must not contain NUL characters (U+0000)`] },
        ]);
      }
    }
    return super.transform(value, metadata);
  }
}

/** The dotted path of the first string (or key) holding U+0000, or undefined. Iterative: any nesting depth. */
export function nulPath(value: unknown, root = ''): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], join(path, i)]);
    } else if (item !== null && typeof item === 'object' && !Buffer.isBuffer(item)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        if (key.includes('\u0000')) return join(path, key);
        stack.push([child, join(path, key)]);
      }
    }
  }
  return undefined;
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
