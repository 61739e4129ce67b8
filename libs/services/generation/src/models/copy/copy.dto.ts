import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString, Matches } from 'class-validator';
import { FOREIGN_ID } from '../../generate/dto/fields';

export class CopyModelBody {
  @ApiPropertyOptional({ description: 'Copy the example assets too (default true)' })
  @IsOptional()
  @IsBoolean()
  copyExamples?: boolean;

  @ApiPropertyOptional({ description: 'Copy the trained state and its model files (default false: the copy is `new`, ready to train)' })
  @IsOptional()
  @IsBoolean()
  copyAsTrained?: boolean;
}

export class TransferModelBody {
  @ApiProperty({ description: 'The project (of the same team) the model moves to' })
  @IsDefined({ message: 'destinationProjectId is required' })
  @IsString()
  @Matches(FOREIGN_ID, { message: 'destinationProjectId is not a valid id' })
  destinationProjectId!: string;

  @ApiPropertyOptional({ description: 'The team: models move between projects of the caller’s team only' })
  @IsOptional()
  @IsString()
  @Matches(FOREIGN_ID, { message: 'destinationTeamId is not a valid id' })
  destinationTeamId?: string;
}
