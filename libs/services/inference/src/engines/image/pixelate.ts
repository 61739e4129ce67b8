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
  const { width, height } = src;
  const g = Math.max(1, Math.floor(options.gridSize));
  const cellsX = Math.ceil(width / g);
  const cellsY = Math.ceil(height / g);
  const cells = cellsX * cellsY;
  const background = options.removeBackground ? detectBackground(src) : undefined;

  const colours = new Float32Array(cells * 3);
  const opaque = new Uint8Array(cells);
  const cellGrid = { g, cellsX, cellsY, background, colours, opaque };
  if (options.removeNoise) await cellMedians(src, cellGrid);
  else await cellMeans(src, cellGrid);

  const palette = options.palette?.length
    ? Float32Array.from(options.palette.flat())
    : computePalette(colours, opaque, options.paletteSize);
  const assigned = new Int32Array(cells).fill(-1);
  for (let cell = 0; cell < cells; cell++)
    if (opaque[cell]) assigned[cell] = nearestColour(colours, cell * 3, palette);
  if (options.removeNoise) despeckle(assigned, cellsX, cellsY);

  const out = paint(width, height, g, cellsX, assigned, palette);
  const used: number[][] = [];
  for (let c = 0; c < palette.length / 3; c++)
    used.push([0, 1, 2].map((k) => Math.round(palette[c * 3 + k])));
  return { raster: out, palette: used, cellsX, cellsY };
}

/** Pixels of a long loop between two yields to the event loop (~ a few ms of work). */
const PIXELS_PER_SLICE = 1 << 20;

/** The cells and what is computed per cell: its colour, and whether it is opaque. */
interface CellGrid {
  g: number;
  cellsX: number;
  cellsY: number;
  background: Uint8Array | undefined;
  /** Out: r, g, b of each opaque cell. */
  colours: Float32Array;
  /** Out: 1 for a cell at least half of whose pixels count (alpha ≥ 128, not background). */
  opaque: Uint8Array;
}

/** Mean colour of each cell's counted pixels, row by row over the raster (sequential reads). */
async function cellMeans(src: Raster, grid: CellGrid): Promise<void> {
  const { width, height, data, channels } = src;
  const { g, cellsX, cellsY, background, colours, opaque } = grid;
  const sums = new Float64Array(cellsX * cellsY * 3);
  const counts = new Uint32Array(cellsX * cellsY);
  const alpha = channels === 4;
  let sinceYield = 0;
  for (let y = 0; y < height; y++) {
    const rowCells = Math.floor(y / g) * cellsX;
    for (let cx = 0; cx < cellsX; cx++) {
      const cell = rowCells + cx;
      const xEnd = cx * g + g < width ? cx * g + g : width;
      let r = 0;
      let gr = 0;
      let b = 0;
      let count = 0;
      for (let x = cx * g, i = y * width + x, p = i * channels; x < xEnd; x++, i++, p += channels) {
        if ((alpha && data[p + 3] < 128) || (background !== undefined && background[i])) continue;
        r += data[p];
        gr += data[p + 1];
        b += data[p + 2];
        count++;
      }
      sums[cell * 3] += r;
      sums[cell * 3 + 1] += gr;
      sums[cell * 3 + 2] += b;
      counts[cell] += count;
    }
    sinceYield += width;
    if (sinceYield >= PIXELS_PER_SLICE) {
      sinceYield = 0;
      await yieldToLoop();
    }
  }
  for (let cy = 0; cy < cellsY; cy++) {
    for (let cx = 0; cx < cellsX; cx++) {
      const cell = cy * cellsX + cx;
      const total = (Math.min(width, cx * g + g) - cx * g) * (Math.min(height, cy * g + g) - cy * g);
      const count = counts[cell];
      if (count * 2 < total) continue;
      opaque[cell] = 1;
      for (let c = 0; c < 3; c++) colours[cell * 3 + c] = sums[cell * 3 + c] / count;
    }
  }
}

/** Per-channel median of each cell's counted pixels, cell by cell. */
async function cellMedians(src: Raster, grid: CellGrid): Promise<void> {
  const { width, height, data, channels } = src;
  const { g, cellsX, cellsY, background, colours, opaque } = grid;
  const most = Math.min(g, width) * Math.min(g, height);
  const scratch = [new Uint8Array(most), new Uint8Array(most), new Uint8Array(most)];
  const alpha = channels === 4;
  let sinceYield = 0;
  for (let cy = 0; cy < cellsY; cy++) {
    const yEnd = Math.min(height, cy * g + g);
    for (let cx = 0; cx < cellsX; cx++) {
      const xEnd = Math.min(width, cx * g + g);
      let count = 0;
      for (let y = cy * g; y < yEnd; y++) {
        for (let x = cx * g, i = y * width + x, p = i * channels; x < xEnd; x++, i++, p += channels) {
          if ((alpha && data[p + 3] < 128) || (background !== undefined && background[i])) continue;
          scratch[0][count] = data[p];
          scratch[1][count] = data[p + 1];
          scratch[2][count] = data[p + 2];
          count++;
        }
      }
      const cell = cy * cellsX + cx;
      if (count * 2 < (xEnd - cx * g) * (yEnd - cy * g)) continue;
      opaque[cell] = 1;
      for (let c = 0; c < 3; c++) colours[cell * 3 + c] = medianOf(scratch[c], count);
    }
    sinceYield += width * g;
    if (sinceYield >= PIXELS_PER_SLICE) {
      sinceYield = 0;
      await yieldToLoop();
    }
  }
}

/**
 * The output: each cell's palette colour (opaque), transparent where no
 * colour was assigned. The first pixel row of each cell row is filled cell by
 * cell as 32-bit words, the other rows of the cell row copy it.
 */
function paint(
  width: number,
  height: number,
  g: number,
  cellsX: number,
  assigned: Int32Array,
  palette: Float32Array,
): Raster {
  const out = newRaster(width, height, 4);
  const words = new Uint32Array(out.data.buffer, out.data.byteOffset, width * height);
  // Each palette entry as one RGBA word in the machine's byte order.
  const entry = new Uint8Array(4);
  const entryWord = new Uint32Array(entry.buffer);
  const paletteWords = new Uint32Array(palette.length / 3);
  for (let c = 0; c < paletteWords.length; c++) {
    entry[0] = Math.round(palette[c * 3]);
    entry[1] = Math.round(palette[c * 3 + 1]);
    entry[2] = Math.round(palette[c * 3 + 2]);
    entry[3] = 255;
    paletteWords[c] = entryWord[0];
  }
  const rowBytes = width * 4;
  for (let y0 = 0; y0 < height; y0 += g) {
    const row = (y0 / g) * cellsX;
    const start = y0 * width;
    for (let cx = 0; cx < cellsX; cx++) {
      const colour = assigned[row + cx];
      if (colour >= 0) words.fill(paletteWords[colour], start + cx * g, start + Math.min(width, cx * g + g));
    }
    const yEnd = Math.min(height, y0 + g);
    for (let y = y0 + 1; y < yEnd; y++)
      out.data.copyWithin(y * rowBytes, y0 * rowBytes, y0 * rowBytes + rowBytes);
  }
  return out;
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

/** The median of the first `count` values (the upper one of an even count), 0 for none. */
function medianOf(values: Uint8Array, count: number): number {
  if (count === 0) return 0;
  const sorted = values.subarray(0, count).sort();
  return sorted[count >> 1];
}
