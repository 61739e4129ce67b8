import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

const ID = /^[A-Za-z0-9_-]{1,128}$/;
const list = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter((v) => v.length > 0) : value;

/** `GET /v1/usages` (upstream `GetUsages`). */
export class UsagesQuery {
  @ApiPropertyOptional({ description: '`<n>h` or `<n>d`, at most 120d, ending now. Default 30d. Ignored with startDate/endDate.', example: '7d' })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  timeRange?: string;

  @ApiPropertyOptional({ description: 'ISO 8601; requires endDate; at most 120 days before it' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  startDate?: string;

  @ApiPropertyOptional({ description: 'ISO 8601; requires startDate' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  endDate?: string;

  @ApiPropertyOptional({
    description: 'Comma-separated sections: usages, consumption, activity. Default (and for unknown values, as upstream): all.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  type?: string;

  @ApiPropertyOptional({ description: 'Comma-separated project ids (default: every project the key reaches)' })
  @IsOptional()
  @Transform(list)
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(ID, { each: true, message: 'projectIds must be comma-separated project ids' })
  projectIds?: string[];

  @ApiPropertyOptional({ description: 'Usage of one author (API key id)' })
  @IsOptional()
  @Matches(ID, { message: 'userId is not a valid id' })
  userId?: string;

  @ApiPropertyOptional({ description: 'Comma-separated author (API key) ids' })
  @IsOptional()
  @Transform(list)
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(ID, { each: true, message: 'userIds must be comma-separated ids' })
  userIds?: string[];

  @ApiPropertyOptional({ description: 'Skip this many activity entries (pages of 100). Not a positive integer: 0, as upstream.' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  activityOffset?: string;
}
