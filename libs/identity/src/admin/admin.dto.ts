import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Omittable } from '@genasset/http';
import { ArrayUnique, IsArray, IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { ROLES, SCOPES, type Role, type Scope } from '../roles';

export class CreateTeamDto {
  @ApiProperty({ example: 'Acme studio' })
  @IsString() @IsNotEmpty() @Matches(/\S/, { message: 'name must not be blank' }) @MaxLength(200)
  name!: string;
}

export class CreateProjectDto {
  @ApiProperty({ example: 'Mobile game' })
  @IsString() @IsNotEmpty() @Matches(/\S/, { message: 'name must not be blank' }) @MaxLength(200)
  name!: string;
}

export class CreateApiKeyDto {
  @ApiProperty({ example: 'team_01J...' })
  @IsString() @Matches(/^team_[0-9A-Z]{26}$/, { message: 'teamId must be a team id (team_…)' })
  teamId!: string;

  @ApiPropertyOptional({ description: 'Scope the key to one project; omit for a team-level key.' })
  // Omittable, not IsOptional: a null would silently issue a team-level key.
  @Omittable() @IsString() @Matches(/^proj_[0-9A-Z]{26}$/, { message: 'projectId must be a project id (proj_…)' })
  projectId?: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES as unknown as string[])
  role!: Role;

  @ApiPropertyOptional({ enum: SCOPES, isArray: true })
  @Omittable() @IsArray() @ArrayUnique() @IsIn(SCOPES as unknown as string[], { each: true })
  scopes?: Scope[];
}
