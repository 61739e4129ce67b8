import sharp from 'sharp';
import { ImageEngine } from '../../libs/services/inference/src/engines/image/image.engine';
import { fakeContext, job } from '../../libs/services/inference/src/engines/testing/fake-context';

/** The pixelate request every run of the bench sends (and the engine alone runs). */
export const PIXELATE_PARAMS = { pixelGridSize: 16, colorPaletteSize: 8, removeNoise: false } as const;

/**
 * The bench's input: a 512 × 512 PNG with detail everywhere (gradients plus a
 * noise-like pattern), so palette reduction has real work on every cell.
 */
export async function benchInput(size = 512): Promise<Buffer> {
  const data = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p = (y * size + x) * 3;
      data[p] = (x + ((x * 7 + y * 13) % 23)) & 255;
      data[p + 1] = (y * 2 + ((x * 5) % 17)) & 255;
      data[p + 2] = ((x ^ y) + 40) & 255;
    }
  }
  return sharp(data, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

export interface EngineTimes {
  /** Sorted per-run wall times (ms). */
  ms: number[];
  /** CPU ms per run (this process: the engine's JS plus sharp's threads). */
  cpuMsPerRun: number;
}

/**
 * The image engine's own processing time, alone: decode, pixelate, encode the
 * PNG — exactly what the worker runs, with in-memory input and output instead
 * of object storage. `runs` sequential runs after `warmup` unmeasured ones.
 */
export async function measureEngineAlone(png: Buffer, runs: number, warmup = 5): Promise<EngineTimes> {
  const engine = new ImageEngine();
  const once = async () => {
    const ctx = fakeContext({ asset_bench: png });
    const started = performance.now();
    await engine.run(job('pixelate', { image: 'asset_bench', ...PIXELATE_PARAMS }), ctx);
    return performance.now() - started;
  };
  for (let i = 0; i < warmup; i++) await once();
  const cpu = process.cpuUsage();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) ms.push(await once());
  const used = process.cpuUsage(cpu);
  return { ms: ms.sort((a, b) => a - b), cpuMsPerRun: (used.user + used.system) / 1000 / runs };
}
