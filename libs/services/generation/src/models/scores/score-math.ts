/** Small numeric helpers of the score rules (docs/models.md: Scores). */

export interface Stats {
  min: number;
  median: number;
  mean: number;
}

export const round = (x: number) => Math.round(x * 1000) / 1000;

export function stats(values: readonly number[]): Stats {
  if (values.length === 0) return { min: 0, median: 0, mean: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: round(sorted[0]), median: round(median), mean: round(values.reduce((a, b) => a + b, 0) / values.length) };
}

/** Lowercase words (letters and digits): what captions and prompts are compared on. */
export function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Dice-Sørensen similarity of two word sets: 2|A∩B| / (|A|+|B|); 0 when both are empty. */
export function dice(a: Set<string>, b: Set<string>): number {
  if (a.size + b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return (2 * shared) / (a.size + b.size);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
