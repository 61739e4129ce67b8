import type { EngineContext, EngineResult, StoredOutput, ModeJob } from '../../engine';
import { bool, num } from '../params';
import { decode } from '../raster';
import { TEXTURE_MAPS, textureMaps } from '../texture-maps';
import { mainImage, writePng } from './io';

/**
 * texture → six maps (texture-height, -normal, -smoothness, -metallic, -edge, -ao),
 * each a child of the texture, which itself serves as the albedo (`output.albedoAssetId`).
 */
export async function runTexture(job: ModeJob<'texture'>, ctx: EngineContext): Promise<EngineResult> {
  const { input } = job;
  const { image, parent } = await mainImage(job, ctx, 'texture');
  const defaults = bool(input.defaultParameters, false);
  const param = (name: 'polished' | 'angular' | 'raised' | 'shiny') =>
    defaults ? 0.5 : num(input[name], 0.5, 0, 1);
  const options = {
    polished: param('polished'),
    angular: param('angular'),
    raised: param('raised'),
    shiny: param('shiny'),
    invert: bool(input.invert, false),
  };
  const albedo = await decode(image.bytes, image.field);
  await ctx.progress(0.1);
  const maps = await textureMaps(albedo, options);
  await ctx.progress(0.6);
  const outputs: StoredOutput[] = [];
  for (const [i, map] of TEXTURE_MAPS.entries()) {
    outputs.push(await writePng(ctx, maps[map], `texture-${map}`, parent, { map, ...options }));
    await ctx.progress(0.6 + (0.4 * (i + 1)) / TEXTURE_MAPS.length);
  }
  return { outputs, extra: parent ? { albedoAssetId: parent } : {} };
}
