import { cosine, dice, round, stats, words } from './score-math';

/** One training image as the dataset score sees it. */
export interface DatasetImage {
  assetId: string;
  /** The training image's caption (its description). */
  caption: string;
  width?: number;
  height?: number;
  embedding?: number[];
}

/** Rules (docs/models.md: Training-dataset score). */
export const DATASET_RULES = {
  /** Images for a full count score. */
  idealCount: 10,
  /** Both sides at least this many pixels for the resolution score. */
  minSide: 1024,
  /** Cosine of two image embeddings at or above this: the same picture (asset-service's embedding scale). */
  duplicate: 0.9,
  /** Cosine to the centroid of the others below this: an image unlike the rest (3 images or more). */
  outlier: 0.2,
  /** Dice distance of two captions below this (not 0): too close. */
  closeCaptions: 0.1,
  weights: { count: 0.3, resolution: 0.25, uniqueness: 0.25, captions: 0.2 },
} as const;

type Message =
  | 'Captions are identical'
  | 'Captions are too close'
  | 'Missing caption'
  | 'Missing metadata'
  | 'Similarity is too high'
  | 'Similarity with other assets is too low'
  | 'Width and height must be larger than 1024';

export function datasetScore(modelId: string, images: readonly DatasetImage[]) {
  const R = DATASET_RULES;
  const n = images.length;
  const assetWarnings = new Map<string, Message[]>(images.map((i) => [i.assetId, []]));
  const warn = (id: string, m: Message) => assetWarnings.get(id)!.push(m);
  const coupleWarnings: { couple: [string, string]; message: Message[] }[] = [];
  const captionDistances: { couple: [string, string]; distance: number }[] = [];
  const similarities: { couple: [string, string]; similarity: number }[] = [];
  const duplicated = new Set<string>();

  let sized = 0;
  let large = 0;
  for (const image of images) {
    if (!image.caption.trim()) warn(image.assetId, 'Missing caption');
    if (!image.width || !image.height) warn(image.assetId, 'Missing metadata');
    else {
      sized++;
      if (Math.min(image.width, image.height) >= R.minSide) large++;
      else warn(image.assetId, 'Width and height must be larger than 1024');
    }
  }
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const [a, b] = [images[i], images[j]];
      const couple: [string, string] = [a.assetId, b.assetId];
      const message: Message[] = [];
      if (a.caption.trim() && b.caption.trim()) {
        const distance = round(1 - dice(words(a.caption), words(b.caption)));
        captionDistances.push({ couple, distance });
        if (distance === 0) message.push('Captions are identical');
        else if (distance < R.closeCaptions) message.push('Captions are too close');
      }
      if (a.embedding && b.embedding) {
        const similarity = round(cosine(a.embedding, b.embedding));
        similarities.push({ couple, similarity });
        if (similarity >= R.duplicate) {
          message.push('Similarity is too high');
          duplicated.add(b.assetId);
        }
      }
      if (message.length) coupleWarnings.push({ couple, message });
    }
  const embedded = images.filter((i) => i.embedding);
  const toOthers = embedded.length >= 3
    ? embedded.map((image) => {
        const others = embedded.filter((o) => o !== image);
        const centroid = image.embedding!.map((_, k) => others.reduce((s, o) => s + o.embedding![k], 0) / others.length);
        const similarity = round(cosine(image.embedding!, centroid));
        if (similarity < R.outlier) warn(image.assetId, 'Similarity with other assets is too low');
        return { assetId: image.assetId, similarity };
      })
    : [];

  const captioned = images.filter((i) => i.caption.trim()).length;
  const parts = n
    ? {
        count: Math.min(n / R.idealCount, 1),
        resolution: large / n,
        uniqueness: 1 - duplicated.size / n,
        captions: captioned / n,
      }
    : { count: 0, resolution: 0, uniqueness: 0, captions: 0 };
  const score = round(
    parts.count * R.weights.count +
      parts.resolution * R.weights.resolution +
      parts.uniqueness * R.weights.uniqueness +
      parts.captions * R.weights.captions,
  );
  const assetsWarnings = [...assetWarnings].filter(([, m]) => m.length).map(([assetId, message]) => ({ assetId, message }));
  return {
    modelId,
    score,
    status: n === 0 ? 'unknown' : embedded.length === n && sized === n ? 'complete' : 'incomplete',
    details: {
      metadataScore: round(parts.resolution),
      assetsEmbeddingSimilarity: toOthers,
      assetsSimilarity: stats(toOthers.map((s) => s.similarity)),
      assetCouplesSimilarity: similarities,
      couplesSimilarity: stats(similarities.map((s) => s.similarity)),
      assetCouplesCaptionsDistance: captionDistances,
      couplesCaptionsDistance: stats(captionDistances.map((d) => d.distance)),
    },
    ...(assetsWarnings.length ? { assetsWarnings } : {}),
    ...(coupleWarnings.length ? { assetCouplesWarnings: coupleWarnings } : {}),
  };
}
