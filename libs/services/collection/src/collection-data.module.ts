import { Module } from '@nestjs/common';
import { CollectionPrisma } from './collection.prisma';

/** The collection-service's data layer; nothing outside this service imports it (lint enforces it). */
@Module({ providers: [CollectionPrisma], exports: [CollectionPrisma] })
export class CollectionDataModule {}
