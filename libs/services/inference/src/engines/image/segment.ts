import { detectBackground } from './background';
import { colourClusters, dilate, erode } from './detect';
import type { Raster } from './raster';

export interface SegmentOptions {
  /** [x1, y1, x2, y2] around the object. */
  bbox?: number[];
  /** [label, x, y]: 1 on the object, 0 on the background. */
  points?: number[][];
  dilate: number;
  /** Opening then closing (3×3): removes specks, closes small cracks. */
  betterQuality: boolean;
}

export interface Segmentation {
  /** One byte per pixel: 255 object, 0 background. */
  mask: Uint8Array;
  /** How the object was chosen: points, bbox or foreground. */
  method: 'points' | 'bbox' | 'foreground';
}

/**
 * A binary object mask by colour regions, no model:
 * - points: pixels are clustered by colour (k-means on Lab, 6 clusters) and split into connected
 *   regions; the object is every region holding a positive point, minus regions holding a negative one
 * - bbox: inside the box, the regions whose colour is not common along the box's border (the
 *   background there), keeping the connected parts that touch the box's central area
 * - neither: everything not connected to the image border through background-coloured pixels
 */
export function segment(src: Raster, options: SegmentOptions): Segmentation {
  const { width, height } = src;
  const n = width * height;
  let mask: Uint8Array = new Uint8Array(n);
  let method: Segmentation['method'];
  const points = (options.points ?? []).filter((p) => p.length === 3 && inside(p[1], p[2], width, height));
  const box = options.bbox?.length === 4 ? clampBox(options.bbox, width, height) : undefined;
  if (points.some((p) => p[0] === 1)) {
    method = 'points';
    const regions = connectedRegions(colourClusters(src, 6), width, height);
    const positive = new Set(
      points.filter((p) => p[0] === 1).map((p) => regions[Math.floor(p[2]) * width + Math.floor(p[1])]),
    );
    const negative = new Set(
      points.filter((p) => p[0] === 0).map((p) => regions[Math.floor(p[2]) * width + Math.floor(p[1])]),
    );
    for (let i = 0; i < n; i++) if (positive.has(regions[i]) && !negative.has(regions[i])) mask[i] = 255;
  } else if (box) {
    method = 'bbox';
    mask = boxSegment(src, box);
  } else {
    method = 'foreground';
    const background = detectBackground(src);
    for (let i = 0; i < n; i++) mask[i] = background[i] ? 0 : 255;
  }
  if (options.betterQuality) {
    mask = dilate(erode(mask, width, height, 1), width, height, 1);
    mask = erode(dilate(mask, width, height, 1), width, height, 1);
  }
  if (options.dilate > 0) mask = dilate(mask, width, height, Math.round(options.dilate));
  return { mask, method };
}

function boxSegment(src: Raster, [x1, y1, x2, y2]: number[]): Uint8Array {
  const { width, height } = src;
  const labels = colourClusters(src, 6);
  const borderCounts = new Map<number, number>();
  let borderTotal = 0;
  const count = (x: number, y: number) => {
    const l = labels[y * width + x];
    borderCounts.set(l, (borderCounts.get(l) ?? 0) + 1);
    borderTotal++;
  };
  for (let x = x1; x <= x2; x++) {
    count(x, y1);
    count(x, y2);
  }
  for (let y = y1; y <= y2; y++) {
    count(x1, y);
    count(x2, y);
  }
  const backgroundLabels = new Set(
    [...borderCounts].filter(([, c]) => c / borderTotal >= 0.15).map(([l]) => l),
  );
  const candidate = new Uint8Array(width * height);
  for (let y = y1; y <= y2; y++) {
    for (let x = x1; x <= x2; x++)
      if (!backgroundLabels.has(labels[y * width + x])) candidate[y * width + x] = 1;
  }
  // Keep the connected parts that reach the central half of the box (the object, not stray bits near the border).
  const regions = connectedRegions(candidate, width, height);
  const keep = new Set<number>();
  const cx1 = Math.floor(x1 + (x2 - x1) / 4);
  const cx2 = Math.ceil(x2 - (x2 - x1) / 4);
  const cy1 = Math.floor(y1 + (y2 - y1) / 4);
  const cy2 = Math.ceil(y2 - (y2 - y1) / 4);
  for (let y = cy1; y <= cy2; y++)
    for (let x = cx1; x <= cx2; x++) if (candidate[y * width + x]) keep.add(regions[y * width + x]);
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) if (candidate[i] && keep.has(regions[i])) mask[i] = 255;
  return mask;
}

/** 4-connected components of equal labels; returns a component id per pixel. */
export function connectedRegions(labels: Uint8Array, width: number, height: number): Int32Array {
  const n = width * height;
  const region = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  let next = 0;
  for (let start = 0; start < n; start++) {
    if (region[start] >= 0) continue;
    const label = labels[start];
    region[start] = next;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const i = stack[--top];
      const x = i % width;
      const candidates = [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width];
      for (const j of candidates) {
        if (j < 0 || j >= n || region[j] >= 0 || labels[j] !== label) continue;
        region[j] = next;
        stack[top++] = j;
      }
    }
    next++;
  }
  return region;
}

function inside(x: number, y: number, width: number, height: number): boolean {
  return x >= 0 && y >= 0 && x < width && y < height;
}

function clampBox(box: number[], width: number, height: number): number[] | undefined {
  const x1 = Math.max(0, Math.floor(Math.min(box[0], box[2])));
  const y1 = Math.max(0, Math.floor(Math.min(box[1], box[3])));
  const x2 = Math.min(width - 1, Math.ceil(Math.max(box[0], box[2])));
  const y2 = Math.min(height - 1, Math.ceil(Math.max(box[1], box[3])));
  return x2 > x1 && y2 > y1 ? [x1, y1, x2, y2] : undefined;
}
