import { labToRgb, rgbToLab } from './colour-lab';
import { newRaster, yieldToLoop, type Raster } from './raster';

export interface LabStats {
  mean: [number, number, number];
  std: [number, number, number];
  pixels: number;
}

/** Mean and standard deviation of L*, a*, b* over the opaque pixels of each raster, pooled. */
export function labStats(rasters: readonly Raster[]): LabStats {
  const sum = [0, 0, 0];
  const sumSq = [0, 0, 0];
  let count = 0;
  const lab = new Float32Array(3);
  for (const r of rasters) {
    for (let i = 0; i < r.width * r.height; i++) {
      const p = i * r.channels;
      if (r.channels === 4 && r.data[p + 3] < 128) continue;
      rgbToLab(r.data[p], r.data[p + 1], r.data[p + 2], lab, 0);
      for (let c = 0; c < 3; c++) {
        sum[c] += lab[c];
        sumSq[c] += lab[c] * lab[c];
      }
      count++;
    }
  }
  const mean = sum.map((s) => (count ? s / count : 0)) as [number, number, number];
  const std = sumSq.map((s, c) => (count ? Math.sqrt(Math.max(0, s / count - mean[c] * mean[c])) : 0)) as [
    number,
    number,
    number,
  ];
  return { mean, std, pixels: count };
}

/**
 * Reinhard et al. colour transfer ("Color Transfer between Images", 2001),
 * in CIE L*a*b*: each channel of the input is shifted and scaled so its mean
 * and standard deviation match the style images' (`out = (x − μin) / σin × σstyle + μstyle`),
 * then blended with the original by `strength` (0–1). Shapes and structure are
 * untouched; only the palette and tonal range move towards the style.
 */
export async function colourTransfer(input: Raster, style: LabStats, strength: number): Promise<Raster> {
  const source = labStats([input]);
  const out = newRaster(input.width, input.height, 4);
  const lab = new Float32Array(3);
  const rgb = new Uint8Array(3);
  const scale = source.std.map((s, c) => (s > 1e-3 ? style.std[c] / s : 1));
  for (let i = 0; i < input.width * input.height; i++) {
    const p = i * input.channels;
    rgbToLab(input.data[p], input.data[p + 1], input.data[p + 2], lab, 0);
    for (let c = 0; c < 3; c++) lab[c] = (lab[c] - source.mean[c]) * scale[c] + style.mean[c];
    lab[0] = Math.min(100, Math.max(0, lab[0]));
    labToRgb(lab[0], lab[1], lab[2], rgb, 0);
    for (let c = 0; c < 3; c++)
      out.data[i * 4 + c] = Math.round(input.data[p + c] + (rgb[c] - input.data[p + c]) * strength);
    out.data[i * 4 + 3] = input.channels === 4 ? input.data[p + 3] : 255;
    if (i % 262144 === 262143) await yieldToLoop();
  }
  return out;
}
