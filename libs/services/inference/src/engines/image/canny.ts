import { gaussianBlur, sobel } from './raster';

export interface CannyOptions {
  /** Gradient magnitude (|gx| + |gy| of 3×3 Sobel, as OpenCV's default L1 norm) below which nothing is an edge. */
  low: number;
  /** Magnitude from which a pixel is an edge by itself; weaker ones only when connected to one. */
  high: number;
  /** Gaussian pre-blur, pixels (noise suppression). */
  sigma?: number;
}

/**
 * Canny edge detector on a luminance plane (0–255): Gaussian blur, Sobel
 * gradients, non-maximum suppression along the gradient direction (4 sectors),
 * then double threshold with hysteresis (8-connected). Thresholds follow
 * OpenCV's `cv2.Canny` scale (defaults 100 / 200 there and here). On a 0–255
 * plane the magnitude |gx| + |gy| = max |gx ± gy| is at most 255 × 6 = 1530
 * (either kernel has three weights of +2 and three of −2), so thresholds need
 * no clamp: below 0 acts as 0, above 1530 finds no edge, and values between
 * 255 and 1530 keep only the sharper edges.
 * Returns one byte per pixel: 255 edge, 0 not.
 */
export function canny(lum: Float32Array, width: number, height: number, options: CannyOptions): Uint8Array {
  const low = Math.min(options.low, options.high);
  const high = Math.max(options.low, options.high);
  const smooth = gaussianBlur(lum, width, height, options.sigma ?? 1);
  const { gx, gy } = sobel(smooth, width, height);
  const n = width * height;
  const magnitude = new Float32Array(n);
  for (let i = 0; i < n; i++) magnitude[i] = Math.abs(gx[i]) + Math.abs(gy[i]);

  // 0: not an edge, 1: weak (low ≤ m < high), 2: strong (m ≥ high), after non-maximum suppression.
  const state = new Uint8Array(n);
  const tan22 = Math.tan(Math.PI / 8);
  const tan67 = Math.tan((3 * Math.PI) / 8);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const m = magnitude[i];
      if (m < low) continue;
      const ax = Math.abs(gx[i]);
      const ay = Math.abs(gy[i]);
      let a: number;
      let b: number;
      if (ay <= ax * tan22) {
        a = magnitude[i - 1];
        b = magnitude[i + 1];
      } else if (ay >= ax * tan67) {
        a = magnitude[i - width];
        b = magnitude[i + width];
      } else if (gx[i] * gy[i] > 0) {
        a = magnitude[i - width - 1];
        b = magnitude[i + width + 1];
      } else {
        a = magnitude[i - width + 1];
        b = magnitude[i + width - 1];
      }
      // Ties break one way (as OpenCV does), so a two-pixel-wide ridge keeps one line.
      if (m > a && m >= b) state[i] = m >= high ? 2 : 1;
    }
  }

  const edges = new Uint8Array(n);
  const stack = new Int32Array(n);
  let top = 0;
  for (let i = 0; i < n; i++) {
    if (state[i] !== 2 || edges[i]) continue;
    edges[i] = 255;
    stack[top++] = i;
    while (top > 0) {
      const j = stack[--top];
      const x = j % width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          const nx = x + dx;
          const k = j + dy * width + dx;
          if (nx < 0 || nx >= width || k < 0 || k >= n) continue;
          if (state[k] >= 1 && !edges[k]) {
            edges[k] = 255;
            stack[top++] = k;
          }
        }
      }
    }
  }
  return edges;
}
