/** Every size and count limit of the generate routes, in one place (documented in docs/generation.md). */
export const GENERATE_LIMITS = {
  /** Decoded bytes of one image given as a data URL (the same limit as POST /v1/assets). */
  maxImageBytes: 25 * 1024 * 1024,
  /** Pixels of one data-URL image (width × height), as asset-service accepts. */
  maxImagePixels: 16384 * 16384,
  /** JSON body of a generate request: a few base64 images of maxImageBytes. */
  bodyBytes: 64 * 1024 * 1024,
  /** Images in one list field (ipAdapterImages, styleImages, images, referenceImages…). */
  imagesPerList: 16,
  /** Free text (prompt, negativePrompt, text to embed or translate). */
  textLength: 10_000,
  /** Items of other lists (concepts, unwantedSequences, points, colorPalette). */
  listItems: 256,
  /** Top-level fields of a custom-model body. */
  customFields: 200,
} as const;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
