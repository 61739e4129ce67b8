import { writeBackendsFile } from '@genasset/testing';

/** The version id the fake Replicate's txt2img route pins. */
export const SDXL_VERSION = '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc';

/**
 * A backends file with a hosted-Replicate backend `hosted` (txt2img on a pinned version, img2img on
 * a model's latest; its token read from REPLICATE_TEST_TOKEN) and a Cog backend `cog1` (upscale).
 */
export function replicateBackendsFile(urls: { replicate: string; cog: string; callback: string }, over: Record<string, unknown> = {}): string {
  return writeBackendsFile({
    hosted: {
      type: 'replicate',
      url: urls.replicate,
      credentials: { scheme: 'bearer', tokenEnv: 'REPLICATE_TEST_TOKEN' },
      routes: ['txt2img', 'img2img'],
      models: { txt2img: `stability-ai/sdxl:${SDXL_VERSION}`, img2img: 'black-forest-labs/flux-dev' },
      inputs: { txt2img: { scheduler: 'K_EULER' } },
      callbackUrl: urls.callback,
      timeouts: { request: '2s', job: '20s' },
      pollInterval: '100ms',
      ...over,
    },
    cog1: {
      type: 'cog',
      url: urls.cog,
      routes: ['upscale'],
      timeouts: { request: '2s', job: '20s' },
      pollInterval: '100ms',
    },
  });
}
