import {
  clampByte,
  gaussianBlur,
  luma,
  newRaster,
  planeToGray,
  sobel,
  yieldToLoop,
  type Raster,
} from './raster';

export interface TextureOptions {
  /** 0 rough … 1 mirror: raises smoothness. */
  polished: number;
  /** 0 round … 1 mechanical: sharper, stronger edges. */
  angular: number;
  /** 0 flat … 1 rough rock: stronger normals and deeper occlusion. */
  raised: number;
  /** 0 matte … 1 diamond: raises metallic. */
  shiny: number;
  /** Dark is high instead of bright is high. */
  invert: boolean;
}

export const TEXTURE_MAPS = ['height', 'normal', 'smoothness', 'metallic', 'edge', 'ao'] as const;
export type TextureMap = (typeof TEXTURE_MAPS)[number];

/**
 * PBR maps from one (albedo) texture, by documented heuristics — no model
 * guesses the material. Every filter wraps around the edges, so the maps of a
 * tiling texture tile too.
 *
 * - height: luminance, lightly blurred, stretched to the full range (1st–99th percentile)
 * - normal: Sobel gradients of the height, scaled by `raised`; OpenGL convention (green up), flat = (128, 128, 255)
 * - smoothness: `polished`, lowered where the albedo has local contrast (rough detail), raised a little by `shiny` on bright areas
 * - metallic: `shiny` × low saturation × brightness (bare metals are bright and unsaturated)
 * - edge: gradient magnitude of the height, amplified by `angular`
 * - ao: cavities — how far the height lies below its blurred neighbourhood, deepened by `raised`
 */
export async function textureMaps(
  albedo: Raster,
  options: TextureOptions,
): Promise<Record<TextureMap, Raster>> {
  const { width, height } = albedo;
  const n = width * height;
  const lum = luma(albedo);
  for (let i = 0; i < n; i++) lum[i] /= 255;

  const heightPlane = stretch(gaussianBlur(lum, width, height, 0.8, true));
  if (options.invert) for (let i = 0; i < n; i++) heightPlane[i] = 1 - heightPlane[i];
  await yieldToLoop();

  const { gx, gy } = sobel(heightPlane, width, height, true);
  const normal = normalFromGradients(gx, gy, width, height, 2 + options.raised * 14);
  const edgePlane = new Float32Array(n);
  const edgeGain = 1.5 + options.angular * 6;
  for (let i = 0; i < n; i++) edgePlane[i] = Math.min(1, (Math.hypot(gx[i], gy[i]) / 8) * edgeGain * 4) * 255;
  await yieldToLoop();

  const radius = Math.max(2, Math.min(width, height) / 64);
  const around = gaussianBlur(heightPlane, width, height, radius, true);
  const depth = 2 + options.raised * 6;
  const ao = new Float32Array(n);
  for (let i = 0; i < n; i++) ao[i] = (1 - Math.max(0, around[i] - heightPlane[i]) * depth) * 255;
  await yieldToLoop();

  const mean = gaussianBlur(lum, width, height, 2, true);
  const sq = new Float32Array(n);
  for (let i = 0; i < n; i++) sq[i] = lum[i] * lum[i];
  const meanSq = gaussianBlur(sq, width, height, 2, true);
  const smoothness = new Float32Array(n);
  const metallic = new Float32Array(n);
  const { data, channels } = albedo;
  for (let i = 0; i < n; i++) {
    const localStd = Math.sqrt(Math.max(0, meanSq[i] - mean[i] * mean[i]));
    smoothness[i] = (options.polished * (1 - Math.min(1, localStd * 5)) + options.shiny * 0.2 * lum[i]) * 255;
    const p = i * channels;
    const max = Math.max(data[p], data[p + 1], data[p + 2]);
    const min = Math.min(data[p], data[p + 1], data[p + 2]);
    const saturation = max === 0 ? 0 : (max - min) / max;
    metallic[i] = options.shiny * (1 - saturation) * smoothstep(0.3, 0.85, lum[i]) * 255;
  }

  return {
    height: planeToGray(
      Float32Array.from(heightPlane, (v) => v * 255),
      width,
      height,
    ),
    normal,
    smoothness: planeToGray(smoothness, width, height),
    metallic: planeToGray(metallic, width, height),
    edge: planeToGray(edgePlane, width, height),
    ao: planeToGray(ao, width, height),
  };
}

/** Normal map of a height plane (0–1): for detection maps of ordinary pictures (no wrapping). */
export function normalMap(
  heightPlane: Float32Array,
  width: number,
  height: number,
  strength: number,
  wrap = false,
): Raster {
  const { gx, gy } = sobel(heightPlane, width, height, wrap);
  return normalFromGradients(gx, gy, width, height, strength);
}

/**
 * RGB normals from Sobel gradients of a 0–1 height: Sobel sums 8× the slope
 * per pixel; OpenGL convention (x right, y up while image rows go down), so a
 * flat surface is (0, 0, 1) → (128, 128, 255).
 */
function normalFromGradients(
  gx: Float32Array,
  gy: Float32Array,
  width: number,
  height: number,
  strength: number,
): Raster {
  const out = newRaster(width, height, 3);
  for (let i = 0; i < width * height; i++) {
    const dx = (gx[i] / 8) * strength;
    const dy = (gy[i] / 8) * strength;
    const len = Math.hypot(dx, dy, 1);
    out.data[i * 3] = clampByte(((-dx / len + 1) / 2) * 255);
    out.data[i * 3 + 1] = clampByte(((dy / len + 1) / 2) * 255);
    out.data[i * 3 + 2] = clampByte(((1 / len + 1) / 2) * 255);
  }
  return out;
}

/** Maps the 1st–99th percentile of a plane to 0–1 (a flat plane stays where it is, at mid grey or its own value). */
function stretch(plane: Float32Array): Float32Array {
  const hist = new Uint32Array(1024);
  for (const v of plane) hist[Math.min(1023, Math.max(0, Math.floor(v * 1023)))]++;
  const pick = (fraction: number) => {
    let seen = 0;
    const target = plane.length * fraction;
    for (let i = 0; i < hist.length; i++) {
      seen += hist[i];
      if (seen >= target) return i / 1023;
    }
    return 1;
  };
  const lo = pick(0.01);
  const hi = pick(0.99);
  if (hi - lo < 1e-3) return plane.slice();
  return Float32Array.from(plane, (v) => Math.min(1, Math.max(0, (v - lo) / (hi - lo))));
}

function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}
