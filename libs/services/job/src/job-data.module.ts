import { Module } from '@nestjs/common';
import { JobPrisma } from './job.prisma';

/** The job-service's data layer; nothing outside this service imports it (lint enforces it). */
@Module({ providers: [JobPrisma], exports: [JobPrisma] })
export class JobDataModule {}
