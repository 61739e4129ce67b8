import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStore, StoredObject } from '@genasset/storage';
import type { EngineContext, EngineJob } from '../engine';
import { exportModel } from './model-export';

const MB = 1024 * 1024;

/**
 * A model file that sends 2 MB of incompressible bytes, then stays open until the archive being
 * uploaded holds more than 1 MB: an export that buffered each file whole would wait for its end
 * forever, one that streams it passes the bytes on as they come.
 */
function heldOpenFile(archived: () => number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) return;
      sent = true;
      this.push(randomBytes(2 * MB));
      const check = setInterval(() => {
        if (archived() > MB) {
          clearInterval(check);
          this.push(null);
        }
      }, 5);
      check.unref();
    },
  });
}

describe('exportModel', () => {
  it('streams each model file into the archive instead of holding it whole', async () => {
    let archived = 0;
    const store = {
      get: async (key: string): Promise<StoredObject> =>
        ({ key, contentLength: 2 * MB, body: heldOpenFile(() => archived) }) as unknown as StoredObject,
      upload: async (key: string, body: Readable) => {
        for await (const chunk of body) archived += (chunk as Buffer).length;
        return { key, contentLength: archived };
      },
      delete: async () => undefined,
      signedUrl: async (key: string) => `https://files.example/${key}`,
    } as unknown as ObjectStore;
    const job = {
      jobId: 'job_1',
      modelId: 'model_1',
      tenant: { teamId: 'team_1', projectId: 'proj_1' },
      input: {
        model: { id: 'model_1' },
        files: [{ name: 'weights.bin', key: 'models/proj_1/model_1/weights.bin' }],
      },
    } as unknown as EngineJob;
    const ctx = {
      signal: new AbortController().signal,
      progress: async () => undefined,
    } as unknown as EngineContext;

    const result = await Promise.race([
      exportModel(job, ctx, store),
      new Promise((_, reject) =>
        // A buffered export never ends (the file stays open); deflating 2 MB takes seconds on a loaded CI machine.
        setTimeout(() => reject(new Error('the export waited for the whole file')), 20_000),
      ),
    ]);
    expect(result).toMatchObject({ extra: { downloadUrl: expect.stringContaining('model_1.zip') } });
    expect(archived).toBeGreaterThan(2 * MB);
  }, 30_000);
});
