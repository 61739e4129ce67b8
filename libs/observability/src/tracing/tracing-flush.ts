import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { flushTracing } from './tracing';

/** Last step of an app's shutdown: the buffered spans go out before the process exits. */
@Injectable()
export class TracingFlush implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await flushTracing();
  }
}
