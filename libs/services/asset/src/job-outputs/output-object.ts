import sharp from 'sharp';
import type { ObjectStore } from '@genasset/storage';
import { ObjectNotFoundError } from '@genasset/storage';
import type { AssetKind } from '../core/asset-types';
import { imageProperties } from '../core/asset-writer';
import { probeImage, webRendition } from '../core/images';
import { tryImageEmbedding } from '../embeddings/image-embedding';

/** What asset-service reads from an output object before making it an asset. */
export interface DescribedOutput {
  kind: AssetKind;
  mimeType: string;
  properties: Record<string, unknown>;
  renditionKey?: string;
  /** The built-in image embedding, for raster images asked to have one (see embeddings/image-embedding). */
  embedding?: number[];
}

/** An output that cannot become an asset, whatever the retries: the job fails with this reason. */
export class UnusableOutput extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnusableOutput';
  }
}

/** The web rendition of an output lives beside it: a retried delivery overwrites it instead of leaving an orphan. */
export function renditionKeyOf(key: string): string {
  return `${key.replace(/\.[^./]+$/, '')}.web.webp`;
}

/**
 * Reads an output an executor stored (claim check) and describes it: images
 * are decoded and checked (the declared type is not trusted) and get their
 * web rendition; SVG keeps its size; other media (from the http engine) are
 * kept as they are, by their declared type.
 *
 * Unlike AssetWriter.describeStoredImage this writes the rendition straight to
 * storage under a key derived from the output's: it runs inside the
 * consumer's transaction, where a second database connection (a pending
 * cleanup row) would deadlock embedded mode's single PGlite connection.
 */
export async function describeOutput(
  store: ObjectStore,
  key: string,
  declaredMimeType: string,
  index: number,
  options: { embed?: boolean } = {},
): Promise<DescribedOutput> {
  let bytes: Buffer;
  try {
    const object = await store.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    bytes = Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof ObjectNotFoundError)
      throw new UnusableOutput(`output ${index} of the job is missing from storage`);
    throw error;
  }
  if (declaredMimeType === 'image/svg+xml') {
    const meta = await sharp(bytes)
      .metadata()
      .catch(() => undefined);
    if (!meta?.width || !meta.height)
      throw new UnusableOutput(`output ${index} of the job is not a readable SVG image`);
    return {
      kind: 'image',
      mimeType: 'image/svg+xml',
      properties: {
        width: meta.width,
        height: meta.height,
        size: bytes.length,
        format: 'svg',
        hasAlpha: true,
      },
    };
  }
  if (!declaredMimeType.startsWith('image/')) {
    return { kind: kindOf(declaredMimeType), mimeType: declaredMimeType, properties: { size: bytes.length } };
  }
  let image;
  try {
    image = await probeImage(bytes, `output ${index}`);
  } catch {
    throw new UnusableOutput(`output ${index} of the job is not a valid image`);
  }
  // The rendition (encode, then an S3 round trip) and the embedding run side by side: the job's
  // success waits for the slower of the two, not their sum. The probe's decoded pixels (8-bit
  // PNGs, what the image engine writes) serve both: one decode per output.
  const storeRendition = async (): Promise<string | undefined> => {
    const rendition = await webRendition(bytes, image);
    if (!rendition) return undefined;
    const renditionKey = renditionKeyOf(key);
    await store.put(renditionKey, rendition, { contentType: 'image/webp', contentLength: rendition.length });
    return renditionKey;
  };
  const [renditionKey, embedding] = await Promise.all([
    storeRendition(),
    options.embed ? tryImageEmbedding(bytes, image.pixels) : undefined,
  ]);
  return {
    kind: 'image',
    mimeType: image.mimeType,
    properties: imageProperties(image),
    ...(renditionKey ? { renditionKey } : {}),
    ...(embedding ? { embedding } : {}),
  };
}

function kindOf(mimeType: string): AssetKind {
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('model/')) return '3d';
  if (mimeType === 'application/json') return 'json';
  return 'document';
}
