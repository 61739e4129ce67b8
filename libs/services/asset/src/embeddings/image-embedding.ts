import sharp from 'sharp';
import { fromPixels, type ImagePixels } from '../core/images';
import { LIMITS } from '../core/limits';

/** Length of an asset's embedding (the upstream's embeddings are 1024-dimension vectors too). */
export const IMAGE_EMBEDDING_DIMENSIONS = 1024;

/**
 * Asset types that are data maps rather than pictures (edges, masks, normals…):
 * like the upstream ("not detection maps"), they have no embedding.
 */
const NOT_EMBEDDED = new Set([
  'detection',
  'segmentation-mask',
  'texture-height',
  'texture-normal',
  'texture-smoothness',
  'texture-metallic',
  'texture-edge',
  'texture-ao',
  '3d-texture-metallic',
  '3d-texture-normal',
  '3d-texture-roughness',
]);

/** Whether an asset gets an embedding: raster images that are pictures (not SVG, not data maps). */
export function embeddable(asset: { kind: string; type: string; mimeType: string }): boolean {
  return asset.kind === 'image' && asset.mimeType !== 'image/svg+xml' && !NOT_EMBEDDED.has(asset.type);
}

/** The image is compared at this size (aspect ignored): enough for colour, layout and edge statistics. */
const SIDE = 64;
/** Block weights: cosine of two embeddings = Σ weight × the block's own similarity (see below). */
const WEIGHTS = { colour: 0.5, layout: 0.3, edges: 0.2 } as const;

/**
 * The built-in image embedding of an asset: a 1024-number vector computed
 * from its pixels by classical methods, no model. Three blocks, each
 * L2-normalised and scaled by √weight, so for two images the cosine
 * similarity is a weighted sum of three similarities with a plain meaning:
 *
 * - colour (512 numbers, weight 0.5): the square roots of a soft 8×8×8 RGB
 *   histogram; their dot product is the Bhattacharyya coefficient of the two
 *   colour distributions (1 = same colours in the same proportions, 0 = no
 *   colour in common);
 * - layout (256, weight 0.3): a 16×16 luminance thumbnail minus its mean; the
 *   dot product is the Pearson correlation of where light and dark lie (−1 =
 *   inverted, 0 = unrelated);
 * - edges (256, weight 0.2): a 4×4 grid of 16-direction gradient histograms
 *   (square roots, magnitude-weighted): how similar the edge directions are
 *   region by region.
 *
 * So: ≥ 0.9 is the same picture (resized, recompressed, lightly edited);
 * similar colours and composition score high; different colours, layouts
 * and edges score near 0. It does not know what is in the picture (a red car
 * and a red apple on white are close). A flat image has no layout or edge
 * block; the vector is then renormalised over the colour block. Images with
 * transparency are compared over mid-grey. Deterministic for the same bytes.
 *
 * `pixels`: the bytes' decoded pixels when a probe kept them (8-bit PNGs,
 * see probeImage): the same values, without decoding the bytes again.
 */
export async function imageEmbedding(bytes: Buffer, pixels?: ImagePixels): Promise<number[]> {
  const source = pixels
    ? fromPixels(pixels)
    : sharp(bytes, { limitInputPixels: LIMITS.maxImagePixels }).rotate();
  const { data, info } = await source
    .flatten({ background: { r: 128, g: 128, b: 128 } })
    .resize(SIDE, SIDE, { fit: 'fill' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  const n = SIDE * SIDE;
  const luma = new Float64Array(n);
  const colour = new Float64Array(512);
  const lower = new Int32Array(3);
  const upper = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    const r = data[i * channels];
    const g = data[i * channels + 1];
    const b = data[i * channels + 2];
    luma[i] = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    // Soft (trilinear) binning: a colour near a bin border counts in both, so a slight shift does not jump bins.
    bin(r, 0, lower, upper);
    bin(g, 1, lower, upper);
    bin(b, 2, lower, upper);
    const r0 = lower[0];
    const g0 = lower[1];
    const b0 = lower[2];
    const rf = upper[0];
    const gf = upper[1];
    const bf = upper[2];
    for (let dr = 0; dr < 2; dr++)
      for (let dg = 0; dg < 2; dg++)
        for (let db = 0; db < 2; db++) {
          const w = (dr ? rf : 1 - rf) * (dg ? gf : 1 - gf) * (db ? bf : 1 - bf);
          if (w === 0) continue;
          const ri = r0 + dr > 7 ? 7 : r0 + dr;
          const gi = g0 + dg > 7 ? 7 : g0 + dg;
          const bi = b0 + db > 7 ? 7 : b0 + db;
          colour[(ri * 8 + gi) * 8 + bi] += w;
        }
  }
  for (let i = 0; i < colour.length; i++) colour[i] = Math.sqrt(colour[i]);

  const layout = new Float64Array(256);
  for (let y = 0; y < SIDE; y++)
    for (let x = 0; x < SIDE; x++) layout[(y >> 2) * 16 + (x >> 2)] += luma[y * SIDE + x] / 16;
  const mean = layout.reduce((s, v) => s + v, 0) / layout.length;
  for (let i = 0; i < layout.length; i++) layout[i] -= mean;

  const edges = new Float64Array(256);
  for (let y = 1; y < SIDE - 1; y++) {
    for (let x = 1; x < SIDE - 1; x++) {
      const at = (dx: number, dy: number) => luma[(y + dy) * SIDE + x + dx];
      const gx = at(1, -1) + 2 * at(1, 0) + at(1, 1) - at(-1, -1) - 2 * at(-1, 0) - at(-1, 1);
      const gy = at(-1, 1) + 2 * at(0, 1) + at(1, 1) - at(-1, -1) - 2 * at(0, -1) - at(1, -1);
      const magnitude = Math.hypot(gx, gy);
      if (magnitude < 8) continue; // noise-level gradients say nothing about edges
      const direction = Math.floor(((Math.atan2(gy, gx) + Math.PI) / (2 * Math.PI)) * 16) % 16;
      edges[((y >> 4) * 4 + (x >> 4)) * 16 + direction] += magnitude;
    }
  }
  for (let i = 0; i < edges.length; i++) edges[i] = Math.sqrt(edges[i]);

  const vector = [
    ...scaled(colour, WEIGHTS.colour),
    ...scaled(layout, WEIGHTS.layout),
    ...scaled(edges, WEIGHTS.edges),
  ];
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}

/**
 * The lower of the two bins a channel value falls between (8 bins of 32), and
 * the share of the upper one, into lower[k] and upper[k] (no array per call:
 * this runs three times per pixel).
 */
function bin(value: number, k: number, lower: Int32Array, upper: Float64Array): void {
  const t = Math.max(0, value / 32 - 0.5);
  const l = Math.min(7, Math.floor(t));
  lower[k] = l;
  upper[k] = l === 7 ? 0 : t - l;
}

/** The block L2-normalised and scaled by √weight (all zeros stays zeros). */
function scaled(block: Float64Array, weight: number): number[] {
  let norm = 0;
  for (const v of block) norm += v * v;
  if (!norm) return Array.from(block);
  const k = Math.sqrt(weight / norm);
  return Array.from(block, (v) => v * k);
}

/**
 * The embedding of an asset's bytes, or none when they cannot be read: an
 * embedding is an extra, and never the reason an asset is not created.
 */
export async function tryImageEmbedding(bytes: Buffer, pixels?: ImagePixels): Promise<number[] | undefined> {
  try {
    return await imageEmbedding(bytes, pixels);
  } catch {
    return undefined;
  }
}
