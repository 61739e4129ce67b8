import { kmeans } from './kmeans';
import type { Raster } from './raster';

/**
 * Background detection by flood fill from the image border: the dominant
 * colour of the border pixels (k-means, largest cluster) is the background
 * colour; every pixel connected to the border through pixels close to it is
 * background. Already transparent pixels are background too. Works for
 * product shots, sprites and illustrations on a plain or gently varying
 * backdrop; a busy photographic background is not separable this way.
 *
 * Returns one byte per pixel: 1 background, 0 foreground.
 */
export function detectBackground(raster: Raster, tolerance = 40): Uint8Array {
  const { data, width, height, channels } = raster;
  const n = width * height;
  const background = new Uint8Array(n);
  const colour = borderColour(raster);
  const tol2 = tolerance * tolerance;
  // Step tolerance: neighbours along the fill may differ by less (smooth gradients pass, edges stop).
  const step2 = (tolerance * 0.6) ** 2;
  const alphaAt = (i: number) => (channels === 4 ? data[i * channels + 3] : 255);
  const closeToBackground = (i: number) => alphaAt(i) < 16 || dist2(data, i * channels, colour) <= tol2;

  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  const push = (i: number) => {
    if (background[i] || !closeToBackground(i)) return;
    background[i] = 1;
    queue[tail++] = i;
  };
  for (let x = 0; x < width; x++) {
    push(x);
    push((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    push(y * width);
    push(y * width + width - 1);
  }
  while (head < tail) {
    const i = queue[head++];
    const x = i % width;
    const y = (i - x) / width;
    const visit = (j: number) => {
      if (background[j]) return;
      if (alphaAt(j) >= 16 && neighbourDist2(data, i * channels, j * channels) > step2) return;
      push(j);
    };
    if (x > 0) visit(i - 1);
    if (x < width - 1) visit(i + 1);
    if (y > 0) visit(i - width);
    if (y < height - 1) visit(i + width);
  }
  return background;
}

/** The most common colour along the border (largest k-means cluster of the border pixels). */
export function borderColour(raster: Raster): [number, number, number] {
  const { data, width, height, channels } = raster;
  const samples: number[] = [];
  const take = (i: number) => {
    if (channels === 4 && data[i * channels + 3] < 16) return;
    samples.push(data[i * channels], data[i * channels + 1], data[i * channels + 2]);
  };
  for (let x = 0; x < width; x++) {
    take(x);
    take((height - 1) * width + x);
  }
  for (let y = 1; y < height - 1; y++) {
    take(y * width);
    take(y * width + width - 1);
  }
  if (samples.length === 0) return [0, 0, 0];
  const points = Float32Array.from(samples);
  const centroids = kmeans(points, 3, { seed: 7 });
  const counts = new Array(centroids.length / 3).fill(0);
  for (let i = 0; i < points.length; i += 3) {
    let best = 0;
    let bestD = Infinity;
    for (let c = 0; c < counts.length; c++) {
      const d =
        (points[i] - centroids[c * 3]) ** 2 +
        (points[i + 1] - centroids[c * 3 + 1]) ** 2 +
        (points[i + 2] - centroids[c * 3 + 2]) ** 2;
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    counts[best]++;
  }
  const top = counts.indexOf(Math.max(...counts));
  return [centroids[top * 3], centroids[top * 3 + 1], centroids[top * 3 + 2]];
}

function dist2(data: Uint8Array, p: number, c: readonly number[]): number {
  return (data[p] - c[0]) ** 2 + (data[p + 1] - c[1]) ** 2 + (data[p + 2] - c[2]) ** 2;
}

function neighbourDist2(data: Uint8Array, p: number, q: number): number {
  return (data[p] - data[q]) ** 2 + (data[p + 1] - data[q + 1]) ** 2 + (data[p + 2] - data[q + 2]) ** 2;
}
