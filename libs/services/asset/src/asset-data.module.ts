import { Module } from '@nestjs/common';
import { AssetPrisma } from './asset.prisma';

/** The asset-service's data layer; nothing outside this service imports it (lint enforces it). */
@Module({ providers: [AssetPrisma], exports: [AssetPrisma] })
export class AssetDataModule {}
