import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ProjectIdQuery } from '@genasset/auth';

/** Values of `dryRun` (a string upstream): anything else is refused rather than read as false and charged. */
export const DRY_RUN_VALUES = ['true', 'false', '1', '0'] as const;

export function isDryRun(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

/** Query of every generate route. */
export class GenerateQuery {
  @ApiPropertyOptional({
    enum: DRY_RUN_VALUES,
    description:
      '`true` (or `1`): answer 269 with the cost; nothing is created or charged. `false`/`0`/absent: generate',
  })
  @IsOptional()
  @IsIn(DRY_RUN_VALUES, { message: 'dryRun must be true or false (or 1 or 0)' })
  dryRun?: string;

  @ProjectIdQuery('to generate in')
  projectId?: string;
}

/** Query of the generate routes the spec lists with `originalAssets`. */
export class GenerateAssetsQuery extends GenerateQuery {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`true`: asset URLs in the response serve the original bytes, not the web rendition',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'originalAssets must be true or false' })
  originalAssets?: string;
}
