import { DETECT_MODALITIES, DETECT_MODALITY_ENGINES, type DetectModality } from '@genasset/contracts';
import { detectBackground } from './background';
import { canny } from './canny';
import { rgbToLab } from './colour-lab';
import { kmeans, nearestCentroid } from './kmeans';
import { num, bool } from './params';
import { gaussianBlur, luma, newRaster, planeToGray, type Raster } from './raster';
import { normalMap } from './texture-maps';

/** The detection modalities classical image processing computes honestly; the rest need a model. */
export type ClassicalModality = {
  [K in DetectModality]: (typeof DETECT_MODALITY_ENGINES)[K] extends 'image' ? K : never;
}[DetectModality];
/** The mode table's modalities for the image engine. */
export const CLASSICAL_MODALITIES = DETECT_MODALITIES.filter(
  (m): m is ClassicalModality => DETECT_MODALITY_ENGINES[m] === 'image',
);

/**
 * One detection map (ControlNet-style conditioning image) of the input:
 * - canny: Canny edges, `lowThreshold`/`highThreshold` (default 100/200, any number: see {@link canny}), white on black
 * - grayscale: luminance, window `minThreshold`–`maxThreshold` stretched to 0–255, contrast 1 + `factor`/50 (≥ 0),
 *   border-connected background turned white when `removeBackground` (default true)
 * - lineart_anime: thin lines from a difference of Gaussians (σ 0.7 / 1.1), white on black
 * - sketch: pencil sketch by colour dodge (grey ÷ blurred inverse), dark strokes on white
 * - scribble: thick binary strokes (difference of Gaussians at σ 2, thresholded, dilated), white on black
 * - normal: normals from luminance taken as height (Sobel), OpenGL convention
 * - segmentation: regions of similar colour (k-means on Lab, 8 clusters), each painted a distinct flat colour
 */
export function detectionMap(
  src: Raster,
  modality: ClassicalModality,
  input: Record<string, unknown>,
): Raster {
  const { width, height } = src;
  const lum = luma(src);
  switch (modality) {
    case 'canny': {
      const edges = canny(lum, width, height, {
        low: num(input.lowThreshold, 100),
        high: num(input.highThreshold, 200),
      });
      return { data: edges, width, height, channels: 1 };
    }
    case 'grayscale':
      return grayscale(src, lum, input);
    case 'lineart_anime': {
      const lines = dogLines(lum, width, height, 0.7, 1.1, 30);
      return planeToGray(lines, width, height);
    }
    case 'sketch':
      return pencilSketch(lum, width, height);
    case 'scribble':
      return scribble(lum, width, height);
    case 'normal': {
      const h = gaussianBlur(
        Float32Array.from(lum, (v) => v / 255),
        width,
        height,
        1.5,
      );
      return normalMap(h, width, height, 6);
    }
    case 'segmentation':
      return colourRegions(src, 8);
  }
}

function grayscale(src: Raster, lum: Float32Array, input: Record<string, unknown>): Raster {
  const { width, height } = src;
  const lo = num(input.minThreshold, 0, 0, 255);
  const hi = Math.max(lo + 1, num(input.maxThreshold, 255, 0, 255));
  // A negative factor lowers the contrast down to flat grey; it never inverts the image.
  const contrast = Math.max(0, 1 + num(input.factor, 0) / 50);
  const background = bool(input.removeBackground, true) ? detectBackground(src) : undefined;
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) {
    if (background?.[i]) {
      out[i] = 255;
      continue;
    }
    const v = ((lum[i] - lo) / (hi - lo)) * 255;
    out[i] = (v - 128) * contrast + 128;
  }
  return planeToGray(out, width, height);
}

/** Dark lines as bright values: where the narrow blur is darker than the wide one. */
function dogLines(
  lum: Float32Array,
  width: number,
  height: number,
  sigma: number,
  sigmaWide: number,
  gain: number,
): Float32Array {
  const narrow = gaussianBlur(lum, width, height, sigma);
  const wide = gaussianBlur(lum, width, height, sigmaWide);
  const out = new Float32Array(lum.length);
  for (let i = 0; i < out.length; i++) {
    const d = (wide[i] - narrow[i]) * gain;
    out[i] = d < 6 ? 0 : Math.min(255, d);
  }
  return out;
}

function pencilSketch(lum: Float32Array, width: number, height: number): Raster {
  const inverted = Float32Array.from(lum, (v) => 255 - v);
  const blurred = gaussianBlur(inverted, width, height, Math.max(2, Math.min(width, height) / 100));
  const out = new Float32Array(lum.length);
  for (let i = 0; i < out.length; i++)
    out[i] = blurred[i] >= 255 ? 255 : Math.min(255, (lum[i] * 255) / (255 - blurred[i]));
  return planeToGray(out, width, height);
}

function scribble(lum: Float32Array, width: number, height: number): Raster {
  const lines = dogLines(lum, width, height, 2, 3.2, 6);
  const binary = new Uint8Array(lum.length);
  for (let i = 0; i < binary.length; i++) binary[i] = lines[i] > 24 ? 255 : 0;
  return { data: dilate(binary, width, height, 2), width, height, channels: 1 };
}

/** Square dilation of a 0/255 mask by `radius` pixels (separable max filter). */
export function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return mask.slice();
  const tmp = new Uint8Array(mask.length);
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let m = 0;
      for (let k = Math.max(0, x - radius); k <= Math.min(width - 1, x + radius) && m === 0; k++)
        m = mask[y * width + k];
      tmp[y * width + x] = m;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let m = 0;
      for (let k = Math.max(0, y - radius); k <= Math.min(height - 1, y + radius) && m === 0; k++)
        m = tmp[k * width + x];
      out[y * width + x] = m;
    }
  }
  return out;
}

/** Square erosion: the dual of {@link dilate}. */
export function erode(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const inverted = Uint8Array.from(mask, (v) => (v ? 0 : 255));
  return Uint8Array.from(dilate(inverted, width, height, radius), (v) => (v ? 0 : 255));
}

const REGION_COLOURS = [
  [230, 25, 75],
  [60, 180, 75],
  [255, 225, 25],
  [0, 130, 200],
  [245, 130, 48],
  [145, 30, 180],
  [70, 240, 240],
  [240, 50, 230],
  [210, 245, 60],
  [250, 190, 212],
  [0, 128, 128],
  [170, 110, 40],
];

/** Each pixel labelled with its colour cluster (k-means in Lab over a sample), shown as flat colours. */
export function colourRegions(src: Raster, clusters: number): Raster {
  const labels = colourClusters(src, clusters);
  const out = newRaster(src.width, src.height, 3);
  for (let i = 0; i < labels.length; i++) {
    const c = REGION_COLOURS[labels[i] % REGION_COLOURS.length];
    out.data[i * 3] = c[0];
    out.data[i * 3 + 1] = c[1];
    out.data[i * 3 + 2] = c[2];
  }
  return out;
}

/** Cluster index of every pixel: k-means on Lab colours of at most ~64k sampled pixels, then nearest centroid. */
export function colourClusters(src: Raster, clusters: number): Uint8Array {
  const { data, width, height, channels } = src;
  const n = width * height;
  const lab = new Float32Array(n * 3);
  for (let i = 0; i < n; i++)
    rgbToLab(data[i * channels], data[i * channels + 1], data[i * channels + 2], lab, i * 3);
  const step = Math.max(1, Math.floor(n / 65536));
  const sample = new Float32Array(Math.ceil(n / step) * 3);
  let s = 0;
  for (let i = 0; i < n; i += step, s += 3) sample.set(lab.subarray(i * 3, i * 3 + 3), s);
  const centroids = kmeans(sample.subarray(0, s), clusters, { seed: 3 });
  const labels = new Uint8Array(n);
  for (let i = 0; i < n; i++) labels[i] = nearestCentroid(lab, i * 3, centroids);
  return labels;
}
