import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { COLLECTION_LIMITS } from '../../common/limits';

export class CreateCollectionDto {
  @ApiProperty({
    description: 'The name of the collection.',
    example: 'Hero sprites',
    maxLength: COLLECTION_LIMITS.nameMaxLength,
  })
  @IsString()
  @Matches(/\S/, { message: 'name must not be blank' })
  @MaxLength(COLLECTION_LIMITS.nameMaxLength)
  name!: string;
}
