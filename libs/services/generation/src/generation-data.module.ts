import { Module } from '@nestjs/common';
import { GenerationPrisma } from './generation.prisma';

/** The generation-service's data layer; nothing outside this service imports it (lint enforces it). */
@Module({ providers: [GenerationPrisma], exports: [GenerationPrisma] })
export class GenerationDataModule {}
