import { Module } from '@nestjs/common';
import { InferencePrisma } from './inference.prisma';

/** The inference-worker's data layer; nothing outside this service imports it (lint enforces it). */
@Module({ providers: [InferencePrisma], exports: [InferencePrisma] })
export class InferenceDataModule {}
