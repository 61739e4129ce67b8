import { blurRaster, pullPushFill } from './inpaint';
import { newRaster, yieldToLoop, type Raster } from './raster';

export type InputLocation = 'middle' | 'left' | 'right' | 'top' | 'bottom';

export interface Placement {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where the (resized) input goes on the new canvas: scaled to fit the target
 * (aspect kept) times `resizeOption`, then placed by `inputLocation`.
 */
export function placement(
  source: { width: number; height: number },
  target: { width: number; height: number },
  resizeOption: number,
  location: InputLocation,
): Placement {
  const scale = Math.min(target.width / source.width, target.height / source.height) * resizeOption;
  const width = Math.max(1, Math.min(target.width, Math.round(source.width * scale)));
  const height = Math.max(1, Math.min(target.height, Math.round(source.height * scale)));
  const centreX = Math.floor((target.width - width) / 2);
  const centreY = Math.floor((target.height - height) / 2);
  switch (location) {
    case 'left':
      return { left: 0, top: centreY, width, height };
    case 'right':
      return { left: target.width - width, top: centreY, width, height };
    case 'top':
      return { left: centreX, top: 0, width, height };
    case 'bottom':
      return { left: centreX, top: target.height - height, width, height };
    default:
      return { left: centreX, top: centreY, width, height };
  }
}

/**
 * Extends a picture onto a larger canvas, filling the new area from context:
 * near the original the picture is continued by mirroring it across its edge
 * (structure and texture carry on without a seam); further out the mirrored
 * content fades, through a blurred version of itself, into a smooth pull-push
 * fill of the surrounding colours. Classical, not generative: it extends
 * backgrounds (sky, walls, gradients, textures) convincingly and repeats
 * objects near an edge rather than inventing new ones.
 */
export async function reframe(
  input: Raster,
  canvas: { width: number; height: number },
  at: Placement,
): Promise<Raster> {
  const { width, height } = canvas;
  const out = newRaster(width, height, 4);
  const known = new Uint8Array(width * height);
  const mirrored = newRaster(width, height, 4);
  const distance = new Float32Array(width * height);
  const reflect = (v: number, size: number) => {
    const period = 2 * size;
    const m = ((v % period) + period) % period;
    return m < size ? m : period - 1 - m;
  };
  for (let y = 0; y < height; y++) {
    const sy = reflect(y - at.top, at.height);
    const dy = y < at.top ? at.top - y : y >= at.top + at.height ? y - (at.top + at.height - 1) : 0;
    for (let x = 0; x < width; x++) {
      const sx = reflect(x - at.left, at.width);
      const dx = x < at.left ? at.left - x : x >= at.left + at.width ? x - (at.left + at.width - 1) : 0;
      const i = y * width + x;
      const p = (sy * at.width + sx) * 4;
      for (let c = 0; c < 4; c++) mirrored.data[i * 4 + c] = input.data[p + c];
      distance[i] = Math.hypot(dx, dy);
      if (dx === 0 && dy === 0) {
        known[i] = 1;
        for (let c = 0; c < 4; c++) out.data[i * 4 + c] = input.data[p + c];
      }
    }
    if (y % 64 === 63) await yieldToLoop();
  }
  const smooth = await pullPushFill({ ...out, data: out.data.slice() }, known);
  const reach = Math.max(8, Math.min(at.width, at.height) / 4);
  const soft = blurRaster(mirrored, Math.max(2, reach / 6));
  for (let i = 0; i < width * height; i++) {
    if (known[i]) continue;
    const t = Math.min(1, distance[i] / reach);
    // 0 → the mirrored picture, 0.5 → its blurred version, 1 → the smooth fill.
    for (let c = 0; c < 4; c++) {
      const sharp = mirrored.data[i * 4 + c];
      const blurred = soft.data[i * 4 + c];
      const fill = smooth.data[i * 4 + c];
      const v = t < 0.5 ? sharp + (blurred - sharp) * (t * 2) : blurred + (fill - blurred) * ((t - 0.5) * 2);
      out.data[i * 4 + c] = Math.round(v);
    }
  }
  return out;
}
