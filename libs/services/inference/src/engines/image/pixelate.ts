import { detectBackground } from './background';
import { kmeans } from './kmeans';
import { newRaster, yieldToLoop, type Raster } from './raster';

export interface PixelateOptions {
  /** Side of one output cell, in pixels (the request's `pixelGridSize`). */
  gridSize: number;
  /** Fixed palette ([r, g, b] items); when absent one of `paletteSize` colours is computed. */
  palette?: number[][];
  paletteSize: number;
  /** Median instead of mean per cell, then isolated cells take their neighbours' colour. */
  removeNoise: boolean;
  /** Cells of the border-connected background become transparent. */
  removeBackground: boolean;
}

export interface Pixelated {
  raster: Raster;
  /** The colours the image is made of. */
  palette: number[][];
  cellsX: number;
  cellsY: number;
}

/**
 * Pixel art from an image: the image is cut into `gridSize`×`gridSize` cells
 * (edge cells may be smaller), each cell takes one colour (its pixels' mean,
 * or median with `removeNoise`), the cell colours are quantised to the palette
 * (given, or k-means over the cell colours), and every pixel of a cell is
 * painted with its colour. Output size = input size, so each block is exactly
 * one cell. Cells mostly transparent (or background) become fully transparent.
 */
export async function pixelate(src: Raster, options: PixelateOptions): Promise<Pixelated> {
  const { width, height, data, channels } = src;
  const g = Math.max(1, Math.floor(options.gridSize));
  const cellsX = Math.ceil(width / g);
  const cellsY = Math.ceil(height / g);
  const cells = cellsX * cellsY;
  const background = options.removeBackground ? detectBackground(src) : undefined;

  const colours = new Float32Array(cells * 3);
  const opaque = new Uint8Array(cells);
  const scratch: number[][] = [[], [], []];
  for (let cy = 0; cy < cellsY; cy++) {
    for (let cx = 0; cx < cellsX; cx++) {
      const sums = [0, 0, 0];
      let count = 0;
      let total = 0;
      for (const s of scratch) s.length = 0;
      for (let y = cy * g; y < Math.min(height, (cy + 1) * g); y++) {
        for (let x = cx * g; x < Math.min(width, (cx + 1) * g); x++) {
          total++;
          const i = y * width + x;
          const p = i * channels;
          if ((channels === 4 && data[p + 3] < 128) || background?.[i]) continue;
          count++;
          for (let c = 0; c < 3; c++) {
            sums[c] += data[p + c];
            if (options.removeNoise) scratch[c].push(data[p + c]);
          }
        }
      }
      const cell = cy * cellsX + cx;
      if (count * 2 < total) continue;
      opaque[cell] = 1;
      for (let c = 0; c < 3; c++)
        colours[cell * 3 + c] = options.removeNoise ? median(scratch[c]) : sums[c] / count;
    }
    if (cy % 16 === 15) await yieldToLoop();
  }

  const palette = options.palette?.length
    ? Float32Array.from(options.palette.flat())
    : computePalette(colours, opaque, options.paletteSize);
  const assigned = new Int32Array(cells).fill(-1);
  for (let cell = 0; cell < cells; cell++)
    if (opaque[cell]) assigned[cell] = nearestColour(colours, cell * 3, palette);
  if (options.removeNoise) despeckle(assigned, cellsX, cellsY);

  const out = newRaster(width, height, 4);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / g) * cellsX;
    for (let x = 0; x < width; x++) {
      const colour = assigned[row + Math.floor(x / g)];
      if (colour < 0) continue;
      const p = (y * width + x) * 4;
      out.data[p] = Math.round(palette[colour * 3]);
      out.data[p + 1] = Math.round(palette[colour * 3 + 1]);
      out.data[p + 2] = Math.round(palette[colour * 3 + 2]);
      out.data[p + 3] = 255;
    }
  }
  const used: number[][] = [];
  for (let c = 0; c < palette.length / 3; c++)
    used.push([0, 1, 2].map((k) => Math.round(palette[c * 3 + k])));
  return { raster: out, palette: used, cellsX, cellsY };
}

function computePalette(colours: Float32Array, opaque: Uint8Array, size: number): Float32Array {
  const points: number[] = [];
  for (let cell = 0; cell < opaque.length; cell++) {
    if (opaque[cell]) points.push(colours[cell * 3], colours[cell * 3 + 1], colours[cell * 3 + 2]);
  }
  if (points.length === 0) return Float32Array.from([0, 0, 0]);
  const centroids = kmeans(Float32Array.from(points), size, { seed: 1, iterations: 24 });
  // Round now, so the colours painted are exactly the palette reported.
  return Float32Array.from(centroids, (v) => Math.round(v));
}

/** Nearest palette entry by "redmean" distance (closer to perceived difference than plain RGB). */
function nearestColour(colours: Float32Array, offset: number, palette: Float32Array): number {
  let best = 0;
  let bestD = Infinity;
  for (let c = 0; c < palette.length / 3; c++) {
    const r = colours[offset] - palette[c * 3];
    const g = colours[offset + 1] - palette[c * 3 + 1];
    const b = colours[offset + 2] - palette[c * 3 + 2];
    const rMean = (colours[offset] + palette[c * 3]) / 2;
    const d = (2 + rMean / 256) * r * r + 4 * g * g + (2 + (255 - rMean) / 256) * b * b;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** A cell none of whose 4 neighbours shares its colour, while 3 or 4 of them share one, takes theirs. */
function despeckle(assigned: Int32Array, cellsX: number, cellsY: number): void {
  const source = assigned.slice();
  for (let y = 1; y < cellsY - 1; y++) {
    for (let x = 1; x < cellsX - 1; x++) {
      const i = y * cellsX + x;
      const own = source[i];
      if (own < 0) continue;
      const around = [source[i - 1], source[i + 1], source[i - cellsX], source[i + cellsX]];
      if (around.includes(own)) continue;
      for (const candidate of around) {
        if (candidate >= 0 && around.filter((c) => c === candidate).length >= 3) {
          assigned[i] = candidate;
          break;
        }
      }
    }
  }
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
