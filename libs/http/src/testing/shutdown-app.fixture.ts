// A tiny app run as a child process by start-http-app.spec.ts, so real
// signals can be sent to it. Prints progress as JSON lines on stdout.
import { Controller, Get, Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { createHttpApp } from '../bootstrap/create-http-app';
import { startHttpApp } from '../bootstrap/start-http-app';

const hangOnDestroy = process.env.HANG_ON_DESTROY === '1';
const say = (event: string, extra: Record<string, unknown> = {}): void => {
  process.stdout.write(JSON.stringify({ event, ...extra }) + '\n');
};

@Controller('slow')
class SlowController {
  @Get()
  async slow(): Promise<{ done: boolean }> {
    say('slow-started');
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { done: true };
  }
}

@Injectable()
class Consumer implements OnModuleDestroy {
  async onModuleDestroy(): Promise<void> {
    say('destroy-hook');
    if (hangOnDestroy) await new Promise(() => undefined);
  }
}

@Module({ controllers: [SlowController], providers: [Consumer] })
class ShutdownModule {}

void (async () => {
  const app = await createHttpApp(ShutdownModule, {
    serviceName: 'shutdown-test',
    logLevel: process.env.LOG_LEVEL ?? 'silent',
    openapi: { title: 't' },
  });
  const running = await startHttpApp(app, { port: 0, host: '127.0.0.1', shutdownGraceMs: 1000 });
  say('listening', { url: running.url });
})();
