import { applyDecorators } from '@nestjs/common';
import { IsDefined, ValidateIf } from 'class-validator';

/**
 * An update field that may be left out but not set to null. IsOptional skips
 * every check for null as well, so a null would reach the database as "set
 * this required column to null": a 500 instead of a 400 naming the field.
 */
export function Omittable(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_body: object, value: unknown) => value !== undefined),
    IsDefined({ message: '$property cannot be null: leave it out to keep the current value' }),
  );
}
