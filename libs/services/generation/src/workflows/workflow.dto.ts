import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ProjectIdQuery } from '@genasset/auth';

/** Upstream's input (and output) types. */
export const WORKFLOW_VALUE_TYPES = [
  'boolean', 'file', 'file_array', 'model', 'model_array', 'number', 'number_array', 'string', 'string_array',
] as const;
export const ASSET_KINDS = ['3d', 'audio', 'document', 'image', 'image-hdr', 'json', 'video'] as const;
export const WORKFLOW_LIMITS = { steps: 20, inputs: 30, stepInputs: 40, pageSize: { min: 1, max: 200, default: 10 } } as const;
/** A step id or an input name: what a binding names. */
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

export class WorkflowsQuery {
  @ProjectIdQuery('whose workflows to use')
  projectId?: string;
}

export class ListWorkflowsQuery extends WorkflowsQuery {
  @ApiPropertyOptional({ enum: ['private', 'public'], description: '`private` (default): the project’s workflows; `public`: every team’s public workflows' })
  @IsOptional()
  @IsIn(['private', 'public'], { message: 'privacy must be private or public' })
  privacy?: 'private' | 'public';

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 10, description: 'Items per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be an integer' })
  @Min(WORKFLOW_LIMITS.pageSize.min)
  @Max(WORKFLOW_LIMITS.pageSize.max)
  pageSize?: number;

  @ApiPropertyOptional({ description: 'nextPaginationToken of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  paginationToken?: string;
}

/** One declared input of the workflow: what `PUT /run` takes. */
export class WorkflowInput {
  @ApiProperty() @IsString() @Matches(NAME, { message: 'name must be a letter then letters, digits, _ or - (64 at most)' })
  name!: string;
  @ApiProperty({ enum: WORKFLOW_VALUE_TYPES }) @IsIn(WORKFLOW_VALUE_TYPES, { message: `type must be one of ${WORKFLOW_VALUE_TYPES.join(', ')}` })
  type!: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) label?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({ enum: ASSET_KINDS }) @IsOptional() @IsIn(ASSET_KINDS) kind?: string;
  @ApiPropertyOptional({ ...OPEN_OBJECT, description: '{ always: true } when the input must be given' })
  @IsOptional() @IsObject() required?: { always?: boolean };
}

/** Where a step input's value comes from: a workflow input (`node: "workflow"`) or an earlier step's output. */
export class WorkflowRef {
  @ApiProperty({ description: 'A step id, or `workflow` for an input of the workflow' })
  @IsString() @Matches(NAME, { message: 'node must be a step id or workflow' })
  node!: string;
  @ApiPropertyOptional({ description: 'The workflow input’s name (required for `workflow`); for a step, its output (default: its first)' })
  @IsOptional() @IsString() @MaxLength(64)
  name?: string;
}

/** One input of a step: a static `value`, or a `ref`. */
export class WorkflowStepInput {
  @ApiProperty() @IsString() @Matches(NAME, { message: 'name must be an input name of the step' })
  name!: string;
  @ApiProperty({ enum: WORKFLOW_VALUE_TYPES }) @IsIn(WORKFLOW_VALUE_TYPES, { message: `type must be one of ${WORKFLOW_VALUE_TYPES.join(', ')}` })
  type!: string;
  @ApiPropertyOptional({ description: 'A static value' }) @IsOptional()
  value?: unknown;
  @ApiPropertyOptional({ type: WorkflowRef }) @IsOptional() @ValidateNested() @Type(() => WorkflowRef)
  ref?: WorkflowRef;
}

export class WorkflowStepOutput {
  @ApiProperty() @IsString() @MaxLength(64) name!: string;
  @ApiProperty({ enum: WORKFLOW_VALUE_TYPES }) @IsIn(WORKFLOW_VALUE_TYPES) type!: string;
}

/** One step: a generate mode (`type` is its name: pixelate, upscale…) or `custom-model` with `modelId`. */
export class WorkflowStep {
  @ApiProperty() @IsString() @Matches(NAME, { message: 'id must be a letter then letters, digits, _ or - (64 at most)' })
  id!: string;
  @ApiProperty({ description: 'A generate mode (the path under /v1/generate) or custom-model' })
  @IsString() @MaxLength(64)
  type!: string;
  @ApiPropertyOptional({ description: 'The model of a custom-model step' }) @IsOptional() @IsString() @MaxLength(128)
  modelId?: string;
  @ApiProperty({ type: [WorkflowStepInput] })
  @IsDefined({ message: 'inputs is required' }) @IsArray() @ArrayMaxSize(WORKFLOW_LIMITS.stepInputs)
  @ValidateNested({ each: true }) @Type(() => WorkflowStepInput)
  inputs!: WorkflowStepInput[];
  @ApiPropertyOptional({ type: [WorkflowStepOutput] }) @IsOptional() @IsArray() @ArrayMaxSize(10)
  @ValidateNested({ each: true }) @Type(() => WorkflowStepOutput)
  outputs?: WorkflowStepOutput[];
}

class WorkflowFields {
  @ApiPropertyOptional({ enum: ['private', 'public'] }) @IsOptional() @IsIn(['private', 'public'], { message: 'privacy must be private or public' })
  privacy?: 'private' | 'public';
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(300)
  shortDescription?: string;
  @ApiPropertyOptional({ type: [String] }) @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(64, { each: true })
  tagSet?: string[];
  @ApiPropertyOptional({ type: [WorkflowInput] }) @IsOptional() @IsArray() @ArrayMaxSize(WORKFLOW_LIMITS.inputs)
  @ValidateNested({ each: true }) @Type(() => WorkflowInput)
  inputs?: WorkflowInput[];
  @ApiPropertyOptional({ type: [WorkflowStep], description: 'The steps (docs/workflows.md)' })
  @IsOptional() @IsArray() @ArrayMaxSize(WORKFLOW_LIMITS.steps)
  @ValidateNested({ each: true }) @Type(() => WorkflowStep)
  flow?: WorkflowStep[];
}

/** Upstream's PostWorkflowsRequest (name, description), with the graph this product stores. */
export class CreateWorkflowBody extends WorkflowFields {
  @ApiProperty() @IsDefined({ message: 'name is required' }) @IsString() @MinLength(1, { message: 'name must not be empty' }) @MaxLength(200)
  name!: string;
  @ApiProperty() @IsDefined({ message: 'description is required' }) @IsString() @MaxLength(5000)
  description!: string;
}

/** Upstream's PutWorkflowsByWorkflowIdRequest: what is given replaces what was. */
export class UpdateWorkflowBody extends WorkflowFields {
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1, { message: 'name must not be empty' }) @MaxLength(200)
  name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(5000)
  description?: string;
}

export class WorkflowAssetRef {
  @ApiProperty() assetId!: string;
  @ApiProperty() url!: string;
}

export class WorkflowView {
  @ApiProperty({ example: 'workflow_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() shortDescription!: string;
  @ApiProperty({ enum: ['private', 'public'] }) privacy!: string;
  @ApiProperty({ enum: ['deleted', 'draft', 'ready'], description: 'draft while the flow has no step' }) status!: string;
  @ApiProperty({ description: 'The project of the workflow' }) ownerId!: string;
  @ApiProperty({ description: 'The API key that made it ("" when unknown)' }) authorId!: string;
  @ApiProperty({ type: [String] }) tagSet!: string[];
  @ApiProperty({ type: [WorkflowInput] }) inputs!: WorkflowInput[];
  @ApiProperty({ type: [WorkflowStep] }) flow!: (WorkflowStep & { status: string })[];
  @ApiProperty({ enum: ASSET_KINDS, isArray: true }) outputAssetKinds!: string[];
  @ApiProperty({ type: WorkflowAssetRef, description: 'Upstream’s example image; this product keeps none: empty strings' })
  after!: WorkflowAssetRef;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
}

export class WorkflowResponse {
  @ApiProperty({ type: WorkflowView }) workflow!: WorkflowView;
}

export class WorkflowsResponse {
  @ApiProperty({ type: [WorkflowView] }) workflows!: WorkflowView[];
  @ApiPropertyOptional() nextPaginationToken?: string;
}

export class WorkflowEmptyResponse {}
