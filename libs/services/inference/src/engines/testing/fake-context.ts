import sharp from 'sharp';
import {
  EngineError,
  type EngineContext,
  type EngineJob,
  type InputImage,
  type OutputFile,
  type StoredOutput,
} from '../engine';

/** Test kit: an EngineContext over in-memory inputs, collecting outputs (bytes kept) and progress. */
export interface FakeContext extends EngineContext {
  files: (StoredOutput & { bytes: Buffer })[];
  progressed: number[];
  controller: AbortController;
}

export function fakeContext(inputs: Record<string, Buffer> = {}): FakeContext {
  const files: FakeContext['files'] = [];
  const progressed: number[] = [];
  const controller = new AbortController();
  return {
    files,
    progressed,
    controller,
    signal: controller.signal,
    async readInput(reference: unknown, field: string): Promise<InputImage> {
      const bytes = typeof reference === 'string' ? inputs[reference] : undefined;
      if (!bytes) throw new EngineError(`${field}: no such input ${String(reference)}`);
      const reference_ = reference as string;
      return {
        bytes,
        mimeType: 'image/png',
        field,
        ...(reference_.startsWith('asset_') ? { assetId: reference_ } : {}),
      };
    },
    async writeOutput(file: OutputFile): Promise<StoredOutput> {
      const stored = {
        index: files.length,
        key: `jobs/job_test/1/${files.length}.png`,
        mimeType: file.mimeType,
        assetType: file.assetType,
        ...(file.parentAssetId ? { parentAssetId: file.parentAssetId } : {}),
        metadata: file.metadata ?? {},
        bytes: file.bytes,
      };
      files.push(stored);
      return stored;
    },
    async progress(fraction: number) {
      progressed.push(fraction);
    },
  };
}

export function job(
  mode: string,
  input: Record<string, unknown>,
  overrides: Partial<EngineJob> = {},
): EngineJob {
  return {
    jobId: 'job_test',
    jobType: 'inference',
    mode,
    tenant: { teamId: 'team_1', projectId: 'proj_1' },
    input,
    attempt: 1,
    ...overrides,
  };
}

/** Raw RGBA of encoded image bytes. */
export async function pixels(
  bytes: Buffer,
): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** A PNG drawn from a per-pixel function returning [r, g, b] or [r, g, b, a]. */
export async function drawPng(
  width: number,
  height: number,
  paint: (x: number, y: number) => number[],
): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b, a = 255] = paint(x, y);
      data.set([r, g, b, a], (y * width + x) * 4);
    }
  }
  return sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}
