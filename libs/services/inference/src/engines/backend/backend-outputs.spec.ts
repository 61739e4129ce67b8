import { randomBytes } from 'node:crypto';
import { EngineError } from '../engine';
import { fakeContext } from '../testing/fake-context';
import { base64Chunks, dataUrlChunks, storeBackendFile } from './backend-outputs';

const gather = async (chunks: AsyncIterable<Buffer>) => {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { parts, bytes: Buffer.concat(parts) };
};
const refuse = (size: string) => new EngineError(`too large: ${size}`);
const invalid = () => new EngineError('not a data URL');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200_000)]);

describe('backend outputs', () => {
  it('base64 is decoded a slice at a time into the exact bytes', async () => {
    const { parts, bytes } = await gather(base64Chunks(PNG.toString('base64'), PNG.length, refuse));
    expect(bytes.equals(PNG)).toBe(true);
    expect(parts.length).toBeGreaterThan(1);
  });

  it('base64 over the limit is refused from its length, before anything is decoded', () => {
    expect(() => base64Chunks(PNG.toString('base64'), PNG.length - 1, refuse)).toThrow(`too large: ${PNG.length}`);
  });

  it('data URLs: base64 and percent-encoded bytes, each limited', async () => {
    expect((await gather(dataUrlChunks(`data:image/png;base64,${PNG.toString('base64')}`, PNG.length, invalid, refuse))).bytes.equals(PNG)).toBe(true);
    const small = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x41]);
    expect((await gather(dataUrlChunks('data:image/png,%89PNG%41', 10, invalid, refuse))).bytes.equals(small)).toBe(true);
    expect(() => dataUrlChunks('data:image/png,%89PNG%41', 4, invalid, refuse)).toThrow('too large: 5');
    expect(() => dataUrlChunks('data:image/png;base64', 4, invalid, refuse)).toThrow('not a data URL');
  });

  it('a context without streaming gets the same check: an image is stored typed, text is refused saying what it is', async () => {
    const ctx = fakeContext();
    const file = { assetType: 'inference-txt2img' };
    const stored = await storeBackendFile(ctx, 'the x backend b', 'txt2img', { what: 'output 1', chunks: base64Chunks(PNG.toString('base64'), PNG.length, refuse), file });
    expect(stored.mimeType).toBe('image/png');
    expect(ctx.files[0].bytes.equals(PNG)).toBe(true);
    const text = (async function* () {
      yield Buffer.from('Internal error\n');
    })();
    await expect(storeBackendFile(ctx, 'the x backend b', 'txt2img', { what: 'output 2', chunks: text, file })).rejects.toThrow(
      'the x backend b produced output 2, which is not an image (txt2img needs an image): it is text ("Internal error")',
    );
  });
});
