/** Dimensions of the built-in text embedding: the upstream `/generate/embed` returns 1024-dimension vectors. */
export const TEXT_EMBEDDING_DIMENSIONS = 1024;

/**
 * The built-in text embedding: character n-grams (3, 4 and 5 characters of
 * each word padded with spaces, so word starts and ends count) and the words
 * themselves, counted into 1024 buckets by feature hashing with a sign bit
 * (Weinberger et al. 2009: collisions cancel out on average), sublinear
 * weights (1 + ln count), L2-normalised.
 *
 * What the cosine similarity of two such vectors means: how much of their
 * spelling the two texts share — close to the cosine of their n-gram count
 * vectors, give or take ~±0.03 of hashing noise. Near-identical prompts
 * score near 1 (a changed word or a typo keeps most n-grams), unrelated
 * texts near 0. It is lexical, not semantic: synonyms and translations are
 * not close. Deterministic: the same text gives the same vector everywhere.
 */
export function textEmbedding(text: string, dimensions = TEXT_EMBEDDING_DIMENSIONS): number[] {
  const counts = new Map<string, number>();
  const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  for (const word of words(text)) {
    add(`w:${word}`);
    const padded = ` ${word} `;
    for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= padded.length; i++) add(padded.slice(i, i + n));
  }
  const vector = new Float64Array(dimensions);
  for (const [feature, count] of counts) {
    const h = fnv1a(feature);
    vector[h % dimensions] += (fnv1a(feature, 0x9747b28c) & 1 ? 1 : -1) * (1 + Math.log(count));
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  return Array.from(vector, (v) => Math.round((v / norm) * 1e6) / 1e6);
}

/** Lower-cased words (letters and digits, Unicode-aware, NFKC so full-width and composed forms agree). */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Cosine similarity of two vectors of the same length (0 when either is all zeros). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * 32-bit FNV-1a over the UTF-16 code units. Hand-written: a feature hash
 * needs speed and stability, not cryptographic strength, and this is ten
 * lines (SHA-256 per n-gram costs ~20× more for the same buckets).
 */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
