import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, type RunningHttpApp, startHttpApp } from '@genasset/http';
import { FilesystemObjectStore } from '../filesystem/filesystem-object-store';
import { StorageModule } from '../storage.module';

export const TEST_SECRET = 'test-signing-secret-0123456789';

export interface FilesServer {
  store: FilesystemObjectStore;
  app: NestFastifyApplication;
  dir: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A filesystem store in a temp dir behind a real app serving `/v1/files/*`.
 * `listen: false` keeps it in-process for `app.inject()`; otherwise it listens
 * on a loopback port so signed URLs work with plain `fetch`.
 */
export async function startFilesServer(options: { listen?: boolean } = {}): Promise<FilesServer> {
  const dir = await mkdtemp(join(tmpdir(), 'genasset-objects-'));
  const port = options.listen === false ? 0 : await freePort();
  const store = new FilesystemObjectStore({
    rootDir: join(dir, 'objects'),
    signingSecret: TEST_SECRET,
    publicBaseUrl: `http://127.0.0.1:${port}`,
  });
  @Module({ imports: [StorageModule.forRoot({ store })] })
  class FilesTestModule {}
  const app = await createHttpApp(FilesTestModule, {
    serviceName: 'files-test',
    logLevel: 'silent',
    openapi: { title: 'files' },
  });
  let running: RunningHttpApp | undefined;
  if (options.listen === false) {
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } else {
    running = await startHttpApp(app, {
      port,
      host: '127.0.0.1',
      shutdownGraceMs: 5000,
      handleSignals: false,
    });
  }
  return {
    store,
    app,
    dir,
    close: async () => {
      if (running) await running.shutdown();
      else await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
