import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemObjectStore, sniff } from '@genasset/storage';
import { EngineError, type OutputStream } from '../engines/engine';
import { OutputWriter } from './output-writer';

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function* chunks(parts: Buffer[], failAfter?: number): AsyncGenerator<Buffer> {
  let sent = 0;
  for (const part of parts) {
    sent += part.length;
    if (failAfter !== undefined && sent > failAfter) throw new EngineError('the backend produced file 1 of more than 100 bytes');
    yield part;
  }
}

const output = (parts: Buffer[], failAfter?: number): OutputStream => ({
  file: { assetType: 'inference-txt2img', metadata: { backend: 'r8' } },
  chunks: chunks(parts, failAfter),
  type: (head) => {
    const found = sniff(head, head.length);
    if (found?.family !== 'image') throw new EngineError('output 1 is not an image');
    return found.mimeType;
  },
});

describe('OutputWriter.writeStream', () => {
  const store = new FilesystemObjectStore({ rootDir: mkdtempSync(join(tmpdir(), 'outputs-')), signingSecret: 'an-output-writer-test-secret', publicBaseUrl: 'http://localhost' });
  const read = async (key: string) => {
    const object = await store.get(key);
    const parts: Buffer[] = [];
    for await (const part of object.body) parts.push(part as Buffer);
    return Buffer.concat(parts);
  };

  it('streams the chunks into storage, typed by the first bytes, whatever sizes they come in', async () => {
    const writer = new OutputWriter(store, 'job_1', 1, { engine: 'replicate' });
    const body = Buffer.concat([PNG_HEAD, Buffer.alloc(10_000, 7)]);
    const stored = await writer.writeStream(output([body.subarray(0, 3), body.subarray(3, 5000), body.subarray(5000)]));
    expect(stored).toMatchObject({ index: 0, key: 'jobs/job_1/1/0.png', mimeType: 'image/png', metadata: { backend: 'r8', engine: 'replicate' } });
    expect((await read(stored.key)).equals(body)).toBe(true);
  });

  it('refuses what its first bytes say is not an image, storing nothing', async () => {
    const writer = new OutputWriter(store, 'job_2', 1, {});
    await expect(writer.writeStream(output([Buffer.from('<html>not found</html>')]))).rejects.toThrow('output 1 is not an image');
    expect(writer.outputs).toHaveLength(0);
    expect(await store.exists('jobs/job_2/1/0.bin')).toBe(false);
  });

  it('a limit passed mid-stream stops the upload and removes the object', async () => {
    const writer = new OutputWriter(store, 'job_3', 1, {});
    const parts = [Buffer.concat([PNG_HEAD, Buffer.alloc(5000, 1)]), Buffer.alloc(5000, 2), Buffer.alloc(5000, 3)];
    await expect(writer.writeStream(output(parts, 8000))).rejects.toThrow('of more than 100 bytes');
    expect(writer.outputs).toHaveLength(0);
    expect(await store.exists('jobs/job_3/1/0.png')).toBe(false);
  });
});
