import { writeBackendsFile } from '@genasset/testing';

/** A backends file routing txt2img and img2img to the fake ComfyUI, its token read from COMFY_TEST_TOKEN. */
export function comfyBackendsFile(url: string, over: Record<string, unknown> = {}): string {
  return writeBackendsFile({
    gpu1: {
      type: 'comfyui',
      url,
      credentials: { scheme: 'bearer', tokenEnv: 'COMFY_TEST_TOKEN' },
      routes: ['txt2img', 'img2img'],
      defaults: { checkpoint: 'sd15.safetensors' },
      pollInterval: '100ms',
      timeouts: { request: '2s', job: '60s' },
      ...over,
    },
  });
}
