import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ROLES, SCOPES, type Role, type Scope } from '../roles';

export class CreateTeamDto {
  @ApiProperty({ example: 'Acme studio' })
  @IsString() @IsNotEmpty() @MaxLength(200)
  name!: string;
}

export class CreateProjectDto {
  @ApiProperty({ example: 'Mobile game' })
  @IsString() @IsNotEmpty() @MaxLength(200)
  name!: string;
}

export class CreateApiKeyDto {
  @ApiProperty({ example: 'team_01J...' })
  @IsString() @Matches(/^team_[0-9A-Z]{26}$/, { message: 'teamId must be a team id (team_…)' })
  teamId!: string;

  @ApiPropertyOptional({ description: 'Scope the key to one project; omit for a team-level key.' })
  @IsOptional() @IsString() @Matches(/^proj_[0-9A-Z]{26}$/, { message: 'projectId must be a project id (proj_…)' })
  projectId?: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES as unknown as string[])
  role!: Role;

  @ApiPropertyOptional({ enum: SCOPES, isArray: true })
  @IsOptional() @IsArray() @ArrayUnique() @IsIn(SCOPES as unknown as string[], { each: true })
  scopes?: Scope[];
}
