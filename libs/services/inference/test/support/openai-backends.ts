import { writeBackendsFile } from '@genasset/testing';

/** A backends file routing txt2img and the language modes to the fake OpenAI server, its key read from OPENAI_TEST_KEY. */
export function openaiBackendsFile(url: string, over: Record<string, unknown> = {}): string {
  return writeBackendsFile({
    gpt: {
      type: 'openai',
      url,
      credentials: { scheme: 'bearer', tokenEnv: 'OPENAI_TEST_KEY' },
      routes: ['txt2img', 'caption', 'embed', 'translate'],
      models: { image: 'dall-e-2', chat: 'gpt-4o-mini', embedding: 'text-embedding-3-small' },
      timeouts: { request: '2s', job: '30s' },
      rateLimit: { retries: 2, maxWait: '5s' },
      ...over,
    },
  });
}
