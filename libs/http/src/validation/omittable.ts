import { applyDecorators } from '@nestjs/common';
import { IsDefined, ValidateIf } from 'class-validator';

/**
 * A body field that may be left out but not sent as null. IsOptional skips
 * every check for null as well, so a null would reach the service as a value
 * (a required column set to null, `Buffer.from(null)`): a 500 instead of a
 * 400 naming the field. Where null means something (remove a note), use
 * IsOptional and handle it.
 */
export function Omittable(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_body: object, value: unknown) => value !== undefined),
    IsDefined({ message: '$property cannot be null: leave it out instead' }),
  );
}
