import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { COLLECTION_LIMITS, NOT_BLANK } from '../../common/limits';

export class CreateCollectionDto {
  @ApiProperty({
    description: 'The name of the collection.',
    example: 'Hero sprites',
    maxLength: COLLECTION_LIMITS.nameMaxLength,
    pattern: NOT_BLANK.source,
  })
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(COLLECTION_LIMITS.nameMaxLength)
  name!: string;
}
