/** What an archive entry's name is made from (an asset row, as the worker reads it). */
export interface NamedAsset {
  id: string;
  mimeType: string;
  storageKey: string;
  name: string | null;
  inferenceId: string | null;
  modelId: string | null;
  outputIndex: number | null;
  metadata: Record<string, unknown>;
}

export interface NamingOptions {
  /** Upstream's `fileNameTemplate`: `<seed>`, `<num>`, `<prompt>`, `<generator>` (plus `<assetId>`, `<name>`). */
  fileNameTemplate?: string;
  /** Upstream's `flat`: false groups the outputs of each inference in a folder named after it. */
  flat?: boolean;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
  'application/json': 'json',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'video/x-matroska': 'mkv',
  'video/x-msvideo': 'avi',
  'video/ogg': 'ogv',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/webm': 'weba',
  'model/gltf-binary': 'glb',
  'model/gltf+json': 'gltf',
  'model/obj': 'obj',
  'model/stl': 'stl',
  'model/vnd.usdz+zip': 'usdz',
  'application/x-fbx': 'fbx',
  'application/x-ply': 'ply',
};

const MAX_BASE_LENGTH = 120;

/** The file extension of an asset's content: from its MIME type, else its stored key, else `bin`. */
export function extensionOf(asset: Pick<NamedAsset, 'mimeType' | 'storageKey'>): string {
  const known = EXTENSIONS[asset.mimeType.toLowerCase()];
  if (known) return known;
  const fromKey = /\.([A-Za-z0-9]{1,8})$/.exec(asset.storageKey)?.[1];
  return fromKey ? fromKey.toLowerCase() : 'bin';
}

/**
 * One path segment that is safe in every unzip tool: letters, digits and
 * `-_.() ` kept, everything else (slashes, controls, `:` `*` `?` …) replaced
 * by `_`; no leading dots (hidden files, `..`), at most 120 characters.
 */
export function safeSegment(text: string): string {
  const cleaned = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\-_.() ]+/gu, '_')
    .replace(/\s+/g, ' ')
    .replace(/_+/g, '_')
    .trim()
    .replace(/^[.\s_]+/, '')
    .replace(/[.\s]+$/, '');
  return [...cleaned].slice(0, MAX_BASE_LENGTH).join('').trim();
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function fromTemplate(template: string, asset: NamedAsset, position: number): string {
  const values: Record<string, string> = {
    seed: text(asset.metadata.seed),
    num: String(asset.outputIndex ?? position),
    prompt: text(asset.metadata.prompt),
    generator: text(asset.metadata.modelName) || asset.modelId || '',
    assetId: asset.id,
    name: asset.name ?? '',
  };
  return template.replace(/<(seed|num|prompt|generator|assetId|name)>/g, (_, key: string) => values[key]);
}

/**
 * Entry names for an archive, in the order of `assets`: `<assetId>.<ext>` by
 * default, or upstream's `fileNameTemplate`; in a folder per inference unless
 * `flat`. Every name is made safe (no absolute paths, no `..`, no separators
 * from the data) and unique, case-insensitively (`name (2).png`), because
 * several unzip tools and file systems fold case.
 */
export function entryNames(assets: readonly NamedAsset[], options: NamingOptions = {}): string[] {
  const taken = new Set<string>();
  return assets.map((asset, position) => {
    const extension = extensionOf(asset);
    const templated = options.fileNameTemplate
      ? safeSegment(fromTemplate(options.fileNameTemplate, asset, position))
      : '';
    // A template that leaves nothing but punctuation (its values are missing) names nothing.
    const base = /[\p{L}\p{N}]/u.test(templated) ? templated : asset.id;
    const folder =
      !options.flat && asset.inferenceId ? `${safeSegment(asset.inferenceId) || 'inference'}/` : '';
    let name = `${folder}${base}.${extension}`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${folder}${base} (${n}).${extension}`;
    taken.add(name.toLowerCase());
    return name;
  });
}
