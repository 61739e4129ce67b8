import { EngineError } from '../engine';
import { labToRgb, rgbToLab } from '../image/colour-lab';
import { kmeans, nearestCentroid } from '../image/kmeans';
import { open, sizeOf } from '../image/raster';
import { nameOfLab } from './colour-names';

/** One colour of an image's palette: its name, its hex value and the share of the visible pixels it covers. */
export interface PaletteColour {
  name: string;
  hex: string;
  share: number;
}

/** Measurements of one image, from which captions and style descriptions are written. */
export interface ImageAnalysis {
  width: number;
  height: number;
  orientation: 'landscape' | 'portrait' | 'square';
  /** Mean L* (0 black – 100 white) of the visible pixels. */
  lightness: number;
  /** RMS contrast: the standard deviation of L*. */
  contrast: number;
  /** Hasler & Süsstrunk (2003) colourfulness M on 0–255 RGB (0 grey, ~33 moderate, ~59 quite, 100+ extreme). */
  colourfulness: number;
  /** Mean b* + ½·a* of the visible pixels: > 0 warm (red/yellow), < 0 cool (blue/green). */
  warmth: number;
  /** Fraction of pixels on an edge (Sobel |gx|+|gy| of L* above 60 on a ≤160 px rendering). */
  edgeDensity: number;
  /** Fraction of pixels mostly transparent (alpha < 128). */
  transparency: number;
  /** Up to 6 colours (k-means in L*a*b*, same-named clusters merged), largest first. */
  palette: PaletteColour[];
}

/** Side of the rendering the statistics are measured on: enough for colour and edge statistics, fast on any input. */
const SIDE = 160;

/** Measures an image (orientation applied); its bytes come from {@link EngineContext.readInput}. */
export async function analyseImage(bytes: Buffer, field: string): Promise<ImageAnalysis> {
  const { width, height } = await sizeOf(bytes, field);
  let raw: { data: Buffer; info: { width: number; height: number } };
  try {
    raw = await open(bytes)
      .rotate()
      .resize(SIDE, SIDE, { fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new EngineError(`${field} could not be decoded: the image data is truncated or corrupt`);
  }
  const { data } = raw;
  const w = raw.info.width;
  const h = raw.info.height;
  const n = w * h;
  const lab = new Float32Array(n * 3);
  const lightnessPlane = new Float32Array(n);
  const visible: number[] = [];
  let sumL = 0;
  let sumL2 = 0;
  let warmth = 0;
  let sumRg = 0;
  let sumRg2 = 0;
  let sumYb = 0;
  let sumYb2 = 0;
  for (let i = 0; i < n; i++) {
    const r = data[i * 4];
    const g = data[i * 4 + 1];
    const b = data[i * 4 + 2];
    rgbToLab(r, g, b, lab, i * 3);
    lightnessPlane[i] = lab[i * 3];
    if (data[i * 4 + 3] < 128) continue;
    visible.push(i);
    const l = lab[i * 3];
    sumL += l;
    sumL2 += l * l;
    warmth += lab[i * 3 + 2] + lab[i * 3 + 1] / 2;
    const rg = r - g;
    const yb = (r + g) / 2 - b;
    sumRg += rg;
    sumRg2 += rg * rg;
    sumYb += yb;
    sumYb2 += yb * yb;
  }
  const m = visible.length || 1;
  const meanL = sumL / m;
  const sdRg = Math.sqrt(Math.max(0, sumRg2 / m - (sumRg / m) ** 2));
  const sdYb = Math.sqrt(Math.max(0, sumYb2 / m - (sumYb / m) ** 2));
  return {
    width,
    height,
    orientation: width > height * 1.15 ? 'landscape' : height > width * 1.15 ? 'portrait' : 'square',
    lightness: round(meanL, 1),
    contrast: round(Math.sqrt(Math.max(0, sumL2 / m - meanL * meanL)), 1),
    colourfulness: round(Math.hypot(sdRg, sdYb) + 0.3 * Math.hypot(sumRg / m, sumYb / m), 1),
    warmth: round(warmth / m, 1),
    edgeDensity: round(edgeDensity(lightnessPlane, w, h), 3),
    transparency: round(1 - visible.length / n, 3),
    palette: palette(lab, visible),
  };
}

/** Share of interior pixels whose L* gradient (Sobel, |gx|+|gy|) exceeds 60: about a 15-step L* edge. */
function edgeDensity(plane: Float32Array, w: number, h: number): number {
  if (w < 3 || h < 3) return 0;
  let edges = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const at = (dx: number, dy: number) => plane[(y + dy) * w + x + dx];
      const gx = at(1, -1) + 2 * at(1, 0) + at(1, 1) - at(-1, -1) - 2 * at(-1, 0) - at(-1, 1);
      const gy = at(-1, 1) + 2 * at(0, 1) + at(1, 1) - at(-1, -1) - 2 * at(0, -1) - at(1, -1);
      if (Math.abs(gx) + Math.abs(gy) > 60) edges++;
    }
  }
  return edges / ((w - 2) * (h - 2));
}

/** k-means (k = 6, fixed seed) on the visible pixels' L*a*b*; clusters of the same name merged. */
function palette(lab: Float32Array, visible: number[]): PaletteColour[] {
  if (!visible.length) return [];
  const points = new Float32Array(visible.length * 3);
  visible.forEach((p, i) => points.set(lab.subarray(p * 3, p * 3 + 3), i * 3));
  const centroids = kmeans(points, 6, { seed: 7, iterations: 12 });
  const k = centroids.length / 3;
  const counts = new Float64Array(k);
  for (let i = 0; i < visible.length; i++) counts[nearestCentroid(points, i * 3, centroids)]++;
  const byName = new Map<string, { count: number; l: number; a: number; b: number }>();
  for (let c = 0; c < k; c++) {
    if (!counts[c]) continue;
    const [l, a, b] = [centroids[c * 3], centroids[c * 3 + 1], centroids[c * 3 + 2]];
    const name = nameOfLab(l, a, b);
    const entry = byName.get(name) ?? { count: 0, l: 0, a: 0, b: 0 };
    entry.l += l * counts[c];
    entry.a += a * counts[c];
    entry.b += b * counts[c];
    entry.count += counts[c];
    byName.set(name, entry);
  }
  return [...byName.entries()]
    .map(([name, e]) => ({
      name,
      hex: labHex(e.l / e.count, e.a / e.count, e.b / e.count),
      share: round(e.count / visible.length, 3),
    }))
    .sort((x, y) => y.share - x.share || x.name.localeCompare(y.name));
}

function labHex(l: number, a: number, b: number): string {
  const rgb = new Uint8Array(3);
  labToRgb(l, a, b, rgb, 0);
  return `#${Array.from(rgb, (v) => v.toString(16).padStart(2, '0')).join('')}`;
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
