/**
 * One query vector from reference images: the mean of the `like` vectors
 * minus the mean of the `unlike` ones (Rocchio's relevance feedback), scaled
 * to unit length so that its dot product with a stored (unit) embedding is
 * their cosine. Undefined when nothing is left (e.g. the same image liked and
 * unliked).
 */
export function referenceVector(like: readonly number[][], unlike: readonly number[][]): number[] | undefined {
  const dimensions = (like[0] ?? unlike[0])?.length ?? 0;
  const out = new Array<number>(dimensions).fill(0);
  for (const [vectors, sign] of [[like, 1], [unlike, -1]] as const) {
    for (const v of vectors) for (let i = 0; i < dimensions; i++) out[i] += (sign * v[i]) / vectors.length;
  }
  const norm = Math.sqrt(out.reduce((s, x) => s + x * x, 0));
  if (!(norm > 1e-9)) return undefined;
  return out.map((x) => x / norm);
}
