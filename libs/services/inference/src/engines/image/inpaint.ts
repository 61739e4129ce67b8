import { gaussianBlur, yieldToLoop, type Raster } from './raster';

/**
 * Fills the pixels where `known[i] === 0` from the known ones by pull-push
 * interpolation (Gortler et al., "The Lumigraph", 1996): a pyramid is built
 * by averaging known pixels 2×2 at a time (pull) until every level-pixel has
 * data, then each level fills its holes from the bilinear upsampling of the
 * coarser one (push). The fill is smooth and continues the surrounding
 * colours into the hole — it erases objects and removes seams, it does not
 * invent texture. A final Laplace smoothing pass (Jacobi iterations inside the
 * hole, the border fixed) removes the block structure of the pyramid.
 *
 * Works in place on an RGBA raster; returns it.
 */
export async function pullPushFill(
  raster: Raster,
  known: Uint8Array,
  smoothingIterations = 30,
): Promise<Raster> {
  const { width, height, data } = raster;
  const channels = 4;
  const n = width * height;
  let unknown = 0;
  for (let i = 0; i < n; i++) if (!known[i]) unknown++;
  if (unknown === 0) return raster;
  if (unknown === n) throw new Error('pullPushFill: nothing is known');

  // Level 0: premultiplied by weight.
  type Level = { w: number; h: number; colour: Float32Array; weight: Float32Array };
  const levels: Level[] = [];
  const base: Level = {
    w: width,
    h: height,
    colour: new Float32Array(n * channels),
    weight: new Float32Array(n),
  };
  for (let i = 0; i < n; i++) {
    if (!known[i]) continue;
    base.weight[i] = 1;
    for (let c = 0; c < channels; c++) base.colour[i * channels + c] = data[i * channels + c];
  }
  levels.push(base);

  // Pull: average 2×2 blocks of known data; weight saturates at 1.
  while (levels[levels.length - 1].w > 1 || levels[levels.length - 1].h > 1) {
    const fine = levels[levels.length - 1];
    const w = Math.ceil(fine.w / 2);
    const h = Math.ceil(fine.h / 2);
    const coarse: Level = {
      w,
      h,
      colour: new Float32Array(w * h * channels),
      weight: new Float32Array(w * h),
    };
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let wsum = 0;
        const acc = [0, 0, 0, 0];
        for (let dy = 0; dy < 2; dy++) {
          for (let dx = 0; dx < 2; dx++) {
            const fx = 2 * x + dx;
            const fy = 2 * y + dy;
            if (fx >= fine.w || fy >= fine.h) continue;
            const j = fy * fine.w + fx;
            const wj = fine.weight[j];
            if (wj === 0) continue;
            wsum += wj;
            for (let c = 0; c < channels; c++) acc[c] += fine.colour[j * channels + c] * wj;
          }
        }
        const k = y * w + x;
        if (wsum > 0) for (let c = 0; c < channels; c++) coarse.colour[k * channels + c] = acc[c] / wsum;
        coarse.weight[k] = Math.min(1, wsum);
      }
    }
    levels.push(coarse);
  }

  // Push: fill each level's missing share from the bilinearly upsampled coarser level.
  for (let l = levels.length - 2; l >= 0; l--) {
    const fine = levels[l];
    const coarse = levels[l + 1];
    for (let y = 0; y < fine.h; y++) {
      const cy = Math.min(coarse.h - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
      const y0 = Math.floor(cy);
      const y1 = Math.min(coarse.h - 1, y0 + 1);
      const ty = cy - y0;
      for (let x = 0; x < fine.w; x++) {
        const i = y * fine.w + x;
        const wf = fine.weight[i];
        if (wf >= 1) continue;
        const cx = Math.min(coarse.w - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
        const x0 = Math.floor(cx);
        const x1 = Math.min(coarse.w - 1, x0 + 1);
        const tx = cx - x0;
        for (let c = 0; c < channels; c++) {
          const a = coarse.colour[(y0 * coarse.w + x0) * channels + c];
          const b = coarse.colour[(y0 * coarse.w + x1) * channels + c];
          const d = coarse.colour[(y1 * coarse.w + x0) * channels + c];
          const e = coarse.colour[(y1 * coarse.w + x1) * channels + c];
          const up = (a * (1 - tx) + b * tx) * (1 - ty) + (d * (1 - tx) + e * tx) * ty;
          fine.colour[i * channels + c] = fine.colour[i * channels + c] * wf + up * (1 - wf);
        }
        fine.weight[i] = 1;
      }
    }
    if (l % 2 === 0) await yieldToLoop();
  }

  // Laplace smoothing inside the hole (the known border is the boundary condition).
  const colour = base.colour;
  const holes: number[] = [];
  for (let i = 0; i < n; i++) if (!known[i]) holes.push(i);
  for (let iter = 0; iter < smoothingIterations; iter++) {
    for (const i of holes) {
      const x = i % width;
      const y = (i - x) / width;
      const neighbours = [
        x > 0 ? i - 1 : i,
        x < width - 1 ? i + 1 : i,
        y > 0 ? i - width : i,
        y < height - 1 ? i + width : i,
      ];
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (const j of neighbours) sum += colour[j * channels + c];
        colour[i * channels + c] = sum / 4;
      }
    }
    if (iter % 10 === 9) await yieldToLoop();
  }
  for (const i of holes)
    for (let c = 0; c < channels; c++)
      data[i * channels + c] = Math.round(Math.min(255, Math.max(0, colour[i * channels + c])));
  return raster;
}

/** A 0/1 mask from a mask image: white (luminance > 127, opaque) marks the area to fill. */
export function maskFromRaster(mask: Raster): Uint8Array {
  const out = new Uint8Array(mask.width * mask.height);
  for (let i = 0; i < out.length; i++) {
    const p = i * mask.channels;
    const alpha = mask.channels === 4 ? mask.data[p + 3] : 255;
    const l =
      mask.channels >= 3
        ? 0.299 * mask.data[p] + 0.587 * mask.data[p + 1] + 0.114 * mask.data[p + 2]
        : mask.data[p];
    out[i] = alpha >= 128 && l > 127 ? 1 : 0;
  }
  return out;
}

/** Blurs the RGBA of a raster (used to fade mirrored context into a smooth fill). */
export function blurRaster(raster: Raster, sigma: number): Raster {
  const { width, height, data, channels } = raster;
  const out = new Uint8Array(data.length);
  for (let c = 0; c < channels; c++) {
    const plane = new Float32Array(width * height);
    for (let i = 0; i < plane.length; i++) plane[i] = data[i * channels + c];
    const blurred = gaussianBlur(plane, width, height, sigma);
    for (let i = 0; i < plane.length; i++)
      out[i * channels + c] = Math.round(Math.min(255, Math.max(0, blurred[i])));
  }
  return { data: out, width, height, channels };
}
