import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@genasset/config';
import { loadSearchModelConfig, Lru, readEmbeddings, SearchModelError, unitLength } from './search-model';

function file(backends: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'search-model-')), 'backends.json');
  writeFileSync(path, JSON.stringify({ backends }));
  return path;
}

describe('loadSearchModelConfig (INFERENCE_BACKENDS_FILE)', () => {
  it('is undefined without the variable, or without a backend naming models.searchEmbedding', () => {
    expect(loadSearchModelConfig({})).toBeUndefined();
    const path = file({ gpt: { type: 'openai', url: 'http://gpt:8080/v1', routes: ['embed'], models: { embedding: 'bge' } } });
    expect(loadSearchModelConfig({ INFERENCE_BACKENDS_FILE: path })).toBeUndefined();
  });

  it('reads the model, its backend, URL, timeout and credentials (from the variable named), a backend with no routes included', () => {
    const path = file({
      clip: { type: 'openai', url: 'http://infinity:7997', credentials: { scheme: 'bearer', tokenEnv: 'CLIP_KEY' }, models: { searchEmbedding: 'jinaai/jina-clip-v2' }, timeouts: { request: '20s' } },
    });
    expect(loadSearchModelConfig({ INFERENCE_BACKENDS_FILE: path, CLIP_KEY: 'k' })).toEqual({
      backend: 'clip',
      url: 'http://infinity:7997',
      headers: { authorization: 'Bearer k' },
      model: 'jinaai/jina-clip-v2',
      requestTimeoutMs: 20_000,
    });
  });

  it("needs the search backend's credential variables only, not the worker's other keys", () => {
    const path = file({
      gpu1: { type: 'comfyui', url: 'http://comfy:8188', credentials: { scheme: 'bearer', tokenEnv: 'COMFY_TOKEN' }, routes: ['txt2img'] },
      clip: { type: 'openai', url: 'http://infinity:7997', credentials: { scheme: 'bearer', tokenEnv: 'CLIP_KEY' }, models: { searchEmbedding: 'm' } },
    });
    expect(loadSearchModelConfig({ INFERENCE_BACKENDS_FILE: path, CLIP_KEY: 'k' })).toMatchObject({ backend: 'clip', headers: { authorization: 'Bearer k' } });
  });

  it.each([
    [{ clip: { type: 'openai', url: 'http://i:7997', models: { searchEmbedding: '' } } }, /backends\.clip\.models\.searchEmbedding: Too small/],
    [{ clip: { type: 'openai', url: 'http://i:7997' } }, /backends\.clip\.routes: name at least one route \(or models\.searchEmbedding/],
    [{ clip: { type: 'openai', url: 'http://i:7997', models: { searchEmbedding: 'a', imageEmbedding: 'b' } } }, /backends\.clip\.models: Unrecognized key: "imageEmbedding"/],
    [
      { a: { type: 'openai', url: 'http://i:7997', models: { searchEmbedding: 'm' } }, b: { type: 'openai', url: 'http://j:7997', models: { searchEmbedding: 'n' } } },
      /backends\.b\.models\.searchEmbedding: search already embeds with a/,
    ],
    [{ clip: { type: 'openai', url: 'http://i:7997', credentials: { scheme: 'bearer', tokenEnv: 'CLIP_KEY' }, models: { searchEmbedding: 'm' } } }, /backends\.clip\.credentials\.tokenEnv: the environment variable CLIP_KEY is not set/],
  ])('refuses a bad file naming the path in it (%#)', (backends, message) => {
    const path = file(backends);
    let error: unknown;
    try {
      loadSearchModelConfig({ INFERENCE_BACKENDS_FILE: path });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`INFERENCE_BACKENDS_FILE: ${path}: `);
    expect((error as Error).message).toMatch(message);
  });
});

describe('Lru', () => {
  it('keeps the most recently used entries up to its capacity', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3); // evicts b
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });
});

describe('readEmbeddings', () => {
  it('orders by index and scales to unit length', () => {
    const body = { data: [{ index: 1, embedding: [0, 2] }, { index: 0, embedding: [3, 4] }] };
    expect(readEmbeddings(body, 2)).toEqual([[0.6, 0.8], [0, 1]]);
    expect(unitLength([0, 0])).toBeUndefined();
  });

  it.each([
    [{}, 1, /expected data with 1/],
    [{ data: [{ embedding: [1] }] }, 2, /expected data with 2/],
    [{ data: [{ embedding: ['x'] }] }, 1, /not a list of numbers/],
    [{ data: [{ embedding: [0, 0] }] }, 1, /zero vector/],
    [{ data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [1] }] }, 2, /index 0 is not one of the inputs/],
    [{ data: [{ embedding: [1] }, { embedding: [1, 2] }] }, 2, /differ in length/],
  ])('refuses %j', (body, count, message) => {
    expect(() => readEmbeddings(body, count)).toThrow(SearchModelError);
    expect(() => readEmbeddings(body, count)).toThrow(message);
  });
});
