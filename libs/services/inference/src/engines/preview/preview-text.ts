import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { InputImage } from '../engine';
import { digest } from './preview-image';

/** Dimensions of a preview embedding (a client integrating against it sees the real shape of a vector). */
export const PREVIEW_EMBEDDING_DIMENSIONS = 768;

/**
 * A deterministic text embedding by feature hashing (words and character
 * trigrams into signed buckets, L2-normalised): texts sharing words get
 * nearby vectors, so similarity search can be exercised end to end. Not a
 * semantic model: synonyms are not close.
 */
export function hashedEmbedding(text: string, dimensions = PREVIEW_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Float64Array(dimensions);
  const words =
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const features = [...words, ...words.flatMap((w) => trigrams(` ${w} `))];
  for (const feature of features) {
    const h = createHash('sha256').update(feature).digest();
    const bucket = h.readUInt32BE(0) % dimensions;
    vector[bucket] += h[4] & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector) || 1;
  return Array.from(vector, (v) => Math.round((v / norm) * 1e6) / 1e6);
}

function trigrams(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= word.length; i++) out.push(word.slice(i, i + 3));
  return out;
}

/** What a preview caption can truthfully say about an image: its shape, size and dominant colour. */
export async function describeImage(image: InputImage): Promise<string> {
  const meta = await sharp(image.bytes).metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  const { dominant } = await sharp(image.bytes).stats();
  const shape = width > height * 1.15 ? 'landscape' : height > width * 1.15 ? 'portrait' : 'square';
  return `a ${shape} image, mostly ${colourName(dominant.r, dominant.g, dominant.b)}, ${width}×${height} pixels`;
}

const NAMES: [string, number, number, number][] = [
  ['black', 0, 0, 0],
  ['white', 255, 255, 255],
  ['grey', 128, 128, 128],
  ['red', 200, 30, 30],
  ['orange', 240, 140, 30],
  ['yellow', 235, 220, 50],
  ['green', 40, 160, 60],
  ['teal', 0, 128, 128],
  ['blue', 40, 80, 200],
  ['purple', 130, 50, 160],
  ['pink', 240, 150, 190],
  ['brown', 120, 75, 40],
];

export function colourName(r: number, g: number, b: number): string {
  let best = NAMES[0][0];
  let bestD = Infinity;
  for (const [name, nr, ng, nb] of NAMES) {
    const d = (r - nr) ** 2 + (g - ng) ** 2 + (b - nb) ** 2;
    if (d < bestD) {
      bestD = d;
      best = name;
    }
  }
  return best;
}

const STYLES = [
  'watercolour',
  'isometric',
  'cinematic lighting',
  'flat illustration',
  'pixel art',
  'oil painting',
  'low poly',
  'studio photo',
  'ink sketch',
  'soft pastel',
];
const SUBJECTS = [
  'a lighthouse on a cliff',
  'a fox in a snowy forest',
  'a floating island',
  'a robot gardener',
  'a market street at dusk',
  'a sailing ship in a storm',
];

/** `count` prompts built from the request's prompt (or a stock subject) and stock styles, chosen by hash. */
export function previewPrompts(prompt: string | undefined, count: number, fingerprint: unknown): string[] {
  const bytes = digest(fingerprint);
  return Array.from({ length: count }, (_, i) => {
    const subject = prompt?.trim() || SUBJECTS[bytes[i] % SUBJECTS.length];
    return `${subject}, ${STYLES[bytes[i + 8] % STYLES.length]}, ${STYLES[bytes[i + 16] % STYLES.length]}`;
  });
}
