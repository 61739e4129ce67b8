import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { StoredObjects } from './stored-objects';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Runs the storage cleanup queue in the background: objects of deleted
 * assets whose immediate deletion failed, and uploads whose row never
 * committed (crash between the object write and the row).
 */
@Injectable()
export class CleanupSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CleanupSweeper.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(private readonly objects: StoredObjects) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass: sweeps batches until nothing is due (at most 20 batches); resolves to the objects deleted. */
  runOnce(): Promise<number> {
    this.running ??= (async () => {
      let deleted = 0;
      try {
        for (let batch = 0; batch < 20; batch++) {
          const n = await this.objects.sweep();
          deleted += n;
          if (n === 0) break;
        }
      } catch (error) {
        this.logger.warn({ err: error }, 'cleanup sweep failed');
      } finally {
        this.running = undefined;
      }
      return deleted;
    })();
    return this.running;
  }
}
