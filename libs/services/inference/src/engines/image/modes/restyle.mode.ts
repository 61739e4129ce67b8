import { EngineError, type EngineContext, type EngineResult, type ModeJob } from '../../engine';
import { num } from '../params';
import { decode, open, type Raster } from '../raster';
import { colourTransfer, labStats } from '../restyle';
import { mainImage, writePng } from './io';

/** restyle → `restyle`: Reinhard colour transfer from the style images (pooled Lab statistics), `styleFidelity` % of the way. */
export async function runRestyle(job: ModeJob<'restyle'>, ctx: EngineContext): Promise<EngineResult> {
  const { input } = job;
  const refs = Array.isArray(input.styleImages) ? input.styleImages.slice(0, 16) : [];
  if (refs.length === 0) throw new EngineError('styleImages must name at least one image');
  const { image, parent } = await mainImage(job, ctx);
  const styles: Raster[] = [];
  for (const [i, ref] of refs.entries()) {
    const style = await ctx.readInput(ref, `styleImages.${i}`);
    // Statistics need no more than ~0.25 MP per style image.
    const { data, info } = await open(style.bytes)
      .rotate()
      .resize(512, 512, { fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    styles.push({ data, width: info.width, height: info.height, channels: 4 });
  }
  await ctx.progress(0.3);
  const strength = num(input.styleFidelity, 80, 0, 100) / 100;
  const out = await colourTransfer(await decode(image.bytes, image.field), labStats(styles), strength);
  await ctx.progress(0.8);
  return {
    outputs: [
      await writePng(ctx, out, 'restyle', parent, {
        styleFidelity: strength * 100,
        method: 'Reinhard colour transfer (Lab)',
      }),
    ],
  };
}
