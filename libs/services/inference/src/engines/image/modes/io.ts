import sharp from 'sharp';
import type { EngineContext, EngineJob, InputImage, StoredOutput } from '../../engine';
import { str } from '../params';
import { encodePng, type Raster } from '../raster';

/** The request's main image and the asset its outputs derive from (the image's asset, else `imageParentId`). */
export async function mainImage(
  job: EngineJob,
  ctx: EngineContext,
  field = 'image',
): Promise<{ image: InputImage; parent?: string }> {
  const image = await ctx.readInput(job.input[field], field);
  return { image, parent: image.assetId ?? str(job.input.imageParentId) };
}

/** Stores a raster as PNG output. */
export async function writePng(
  ctx: EngineContext,
  raster: Raster,
  assetType: string,
  parentAssetId: string | undefined,
  metadata: Record<string, unknown> = {},
): Promise<StoredOutput> {
  return ctx.writeOutput({
    bytes: await encodePng(raster),
    mimeType: 'image/png',
    assetType,
    ...(parentAssetId ? { parentAssetId } : {}),
    metadata: { width: raster.width, height: raster.height, ...metadata },
  });
}

/** Resizes encoded image bytes to exactly width × height (Lanczos), as PNG. */
export async function resizedPng(bytes: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(bytes).resize(width, height, { kernel: 'lanczos3', fit: 'fill' }).png().toBuffer();
}
