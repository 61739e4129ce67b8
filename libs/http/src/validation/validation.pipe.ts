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
    if (metadata.type === 'query') {
      const errors = numericQueryErrors(value, metadata);
      if (errors.length) throw ApiError.validation(errors);
    }
    return super.transform(value, metadata);
  }
}

/** Digits with an optional minus: what a numeric query parameter may be written as. */
const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Numeric query parameters are written in plain decimal. The conversion to a
 * number (`@Type(() => Number)`, or Nest's for a `number` parameter) is
 * `Number(text)`, which reads `1e2` as 100, `0x10` as 16 and ` 5` as 5, so the
 * text is checked first, for every property a query DTO declares as a number
 * (its `design:type`) and every `@Query('name') name: number`.
 */
function numericQueryErrors(value: unknown, metadata: ArgumentMetadata): FieldError[] {
  const numeric = (field: string, text: unknown): FieldError[] =>
    typeof text === 'string' && !DECIMAL_INTEGER.test(text)
      ? [{ field, messages: [`${field} must be a decimal integer (digits only)`] }]
      : [];
  if (metadata.data) return metadata.metatype === Number ? numeric(metadata.data, value) : [];
  const prototype = (metadata.metatype as { prototype?: object } | undefined)?.prototype;
  if (!prototype || typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([field, text]) =>
    Reflect.getMetadata('design:type', prototype, field) === Number ? numeric(field, text) : [],
  );
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
