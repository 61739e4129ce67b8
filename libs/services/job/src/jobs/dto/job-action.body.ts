import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';

export const JOB_ACTIONS = ['cancel'] as const;

/** `POST /v1/jobs/{jobId}/action` body (upstream `PostJobActionByJobIdRequest`). */
export class JobActionBody {
  @ApiProperty({ enum: JOB_ACTIONS, description: 'The action to run on the job. Only `cancel` exists.' })
  @IsIn(JOB_ACTIONS as unknown as string[])
  action!: (typeof JOB_ACTIONS)[number];
}
