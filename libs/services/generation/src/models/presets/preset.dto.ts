import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString, Matches } from 'class-validator';
import { FOREIGN_ID } from '../../generate/dto/fields';

const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

/** POST /v1/models/{modelId}/presets: a preset is made from a generation job's parameters (upstream's inferenceId). */
export class CreatePresetBody {
  @ApiProperty({ description: 'The generation job (job_…) whose parameters the preset keeps' })
  @IsDefined({ message: 'inferenceId is required' })
  @IsString()
  @Matches(FOREIGN_ID, { message: 'inferenceId is not a valid id' })
  inferenceId!: string;

  @ApiPropertyOptional({ description: 'Make it the model’s default preset (default false)' })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

export class UpdatePresetBody {
  @ApiProperty({ description: 'Whether this preset is the model’s default' })
  @IsDefined({ message: 'isDefault is required' })
  @IsBoolean()
  isDefault!: boolean;
}

export class ModelPresetView {
  @ApiProperty({ example: 'preset_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A' }) id!: string;
  @ApiProperty() modelId!: string;
  @ApiProperty({ description: 'The project of the model' }) ownerId!: string;
  @ApiProperty({ description: 'The API key that made it ("" when unknown)' }) authorId!: string;
  @ApiProperty({ ...OPEN_OBJECT, description: 'The generation parameters: prompt, type and the rest of the job’s input' })
  parameters!: Record<string, unknown>;
  @ApiProperty() isDefault!: boolean;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
}

export class ModelPresetResponse {
  @ApiProperty({ type: ModelPresetView }) preset!: ModelPresetView;
}

export class ModelPresetsResponse {
  @ApiProperty({ type: [ModelPresetView] }) presets!: ModelPresetView[];
}
