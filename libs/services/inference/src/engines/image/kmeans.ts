import { rng } from './params';

/**
 * k-means over 3-component points (colours), k-means++ seeding from a fixed
 * seed: the same points give the same centroids. `points` is n×3 floats.
 */
export function kmeans(
  points: Float32Array,
  k: number,
  options: { iterations?: number; seed?: number } = {},
): Float32Array {
  const n = points.length / 3;
  const clusters = Math.max(1, Math.min(k, n));
  const random = rng(options.seed ?? 1);
  const centroids = new Float32Array(clusters * 3);
  if (n === 0) return new Float32Array(0);
  // k-means++: each next centre drawn with probability ∝ squared distance to the nearest chosen one.
  let first = Math.floor(random() * n);
  centroids.set(points.subarray(first * 3, first * 3 + 3), 0);
  const nearest = new Float32Array(n).fill(Infinity);
  for (let c = 1; c < clusters; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const d = dist2(points, i * 3, centroids, (c - 1) * 3);
      if (d < nearest[i]) nearest[i] = d;
      total += nearest[i];
    }
    if (total === 0) {
      // Fewer distinct points than clusters: repeat the last centre (empty clusters are harmless).
      centroids.copyWithin(c * 3, (c - 1) * 3, c * 3);
      continue;
    }
    let target = random() * total;
    first = n - 1;
    for (let i = 0; i < n; i++) {
      target -= nearest[i];
      if (target <= 0) {
        first = i;
        break;
      }
    }
    centroids.set(points.subarray(first * 3, first * 3 + 3), c * 3);
  }
  const assignment = new Int32Array(n);
  const sums = new Float64Array(clusters * 3);
  const counts = new Int32Array(clusters);
  for (let iter = 0; iter < (options.iterations ?? 16); iter++) {
    let moved = 0;
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const best = nearestCentroid(points, i * 3, centroids);
      if (best !== assignment[i]) moved++;
      assignment[i] = best;
      counts[best]++;
      sums[best * 3] += points[i * 3];
      sums[best * 3 + 1] += points[i * 3 + 1];
      sums[best * 3 + 2] += points[i * 3 + 2];
    }
    for (let c = 0; c < clusters; c++) {
      if (counts[c] === 0) continue;
      centroids[c * 3] = sums[c * 3] / counts[c];
      centroids[c * 3 + 1] = sums[c * 3 + 1] / counts[c];
      centroids[c * 3 + 2] = sums[c * 3 + 2] / counts[c];
    }
    if (iter > 0 && moved === 0) break;
  }
  return centroids;
}

export function nearestCentroid(
  points: ArrayLike<number>,
  offset: number,
  centroids: ArrayLike<number>,
): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let c = 0; c < centroids.length / 3; c++) {
    const d = dist2(points, offset, centroids, c * 3);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

function dist2(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  const d0 = a[ai] - b[bi];
  const d1 = a[ai + 1] - b[bi + 1];
  const d2 = a[ai + 2] - b[bi + 2];
  return d0 * d0 + d1 * d1 + d2 * d2;
}
