import { Module } from '@nestjs/common';
import { AssetCoreModule } from '../core/asset-core.module';
import { CanvasController } from './canvas.controller';
import { CanvasService } from './canvas.service';
import { CanvasLockRepository } from './canvas-lock.repository';
import { SnapshotRepository } from './snapshot.repository';

/** Canvas updates, locks and snapshots. */
@Module({ imports: [AssetCoreModule], controllers: [CanvasController], providers: [CanvasService, SnapshotRepository, CanvasLockRepository] })
export class CanvasModule {}
