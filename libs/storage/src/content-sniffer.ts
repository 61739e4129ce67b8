/** What the first bytes of a file say it is (the declared name and type are never trusted). */
export interface SniffedContent {
  family: 'image' | 'video' | 'audio' | '3d';
  /** Short format name: png, mp4, mp3, glb, … */
  format: string;
  mimeType: string;
  /** Container formats holding either audio or video (mp4, webm/mkv, ogg): the declared kind decides. */
  alsoAudio?: { format: string; mimeType: string };
}

/** Bytes read from the start of an upload to recognise it. */
export const SNIFF_BYTES = 4096;

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);
const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  signature.every((b, i) => bytes[offset + i] === b);

const MP4_AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ']);
const QUICKTIME_BRANDS = new Set(['qt  ']);

/**
 * Recognises the video, audio, 3D and image formats clients upload, from
 * their magic bytes (and, for text formats, their first lines). Undefined:
 * not a format this service accepts.
 */
export function sniff(head: Buffer, size: number): SniffedContent | undefined {
  return sniffImage(head) ?? sniffVideoOrAudio(head) ?? sniff3d(head, size);
}

function sniffImage(b: Buffer): SniffedContent | undefined {
  const image = (format: string, mimeType: string): SniffedContent => ({ family: 'image', format, mimeType });
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('png', 'image/png');
  if (startsWith(b, [0xff, 0xd8, 0xff])) return image('jpeg', 'image/jpeg');
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return image('gif', 'image/gif');
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return image('webp', 'image/webp');
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]))
    return image('tiff', 'image/tiff');
  if (ascii(b, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(b, 8, 12)))
    return image('avif', 'image/avif');
  return undefined;
}

function sniffVideoOrAudio(b: Buffer): SniffedContent | undefined {
  // ISO base media (MP4, MOV, M4A): size, then 'ftyp' and the major brand.
  if (ascii(b, 4, 8) === 'ftyp') {
    const brand = ascii(b, 8, 12);
    if (MP4_AUDIO_BRANDS.has(brand)) return { family: 'audio', format: 'm4a', mimeType: 'audio/mp4' };
    if (QUICKTIME_BRANDS.has(brand)) return { family: 'video', format: 'mov', mimeType: 'video/quicktime' };
    if (/^(heic|heix|hevc|heim|heis|mif1|msf1|avif|avis)$/.test(brand)) return undefined; // HEIF images
    return {
      family: 'video',
      format: 'mp4',
      mimeType: 'video/mp4',
      alsoAudio: { format: 'm4a', mimeType: 'audio/mp4' },
    };
  }
  // QuickTime files without ftyp start with a moov/mdat/wide/free atom.
  if (['moov', 'mdat', 'wide', 'free', 'skip'].includes(ascii(b, 4, 8)) && b.length >= 8) {
    return { family: 'video', format: 'mov', mimeType: 'video/quicktime' };
  }
  // Matroska / WebM (EBML): the DocType is in the header.
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) {
    const header = ascii(b, 0, Math.min(b.length, 64));
    return header.includes('webm')
      ? {
          family: 'video',
          format: 'webm',
          mimeType: 'video/webm',
          alsoAudio: { format: 'weba', mimeType: 'audio/webm' },
        }
      : {
          family: 'video',
          format: 'mkv',
          mimeType: 'video/x-matroska',
          alsoAudio: { format: 'mka', mimeType: 'audio/x-matroska' },
        };
  }
  if (ascii(b, 0, 4) === 'RIFF') {
    const form = ascii(b, 8, 12);
    if (form === 'AVI ') return { family: 'video', format: 'avi', mimeType: 'video/x-msvideo' };
    if (form === 'WAVE') return { family: 'audio', format: 'wav', mimeType: 'audio/wav' };
  }
  if (ascii(b, 0, 4) === 'OggS') {
    return ascii(b, 0, Math.min(b.length, 128)).includes('theora')
      ? { family: 'video', format: 'ogv', mimeType: 'video/ogg' }
      : { family: 'audio', format: 'ogg', mimeType: 'audio/ogg' };
  }
  if (ascii(b, 0, 4) === 'fLaC') return { family: 'audio', format: 'flac', mimeType: 'audio/flac' };
  if (ascii(b, 0, 3) === 'ID3') return { family: 'audio', format: 'mp3', mimeType: 'audio/mpeg' };
  // MPEG audio frame sync: 11 set bits; layer bits 01 (III) → MP3; layer 00 with ADTS → AAC.
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0) {
    const layer = (b[1] >> 1) & 0x03;
    if (layer === 0 && (b[1] & 0xf6) === 0xf0)
      return { family: 'audio', format: 'aac', mimeType: 'audio/aac' };
    if (layer !== 0 && ((b[1] >> 3) & 0x03) !== 1)
      return { family: 'audio', format: 'mp3', mimeType: 'audio/mpeg' };
  }
  return undefined;
}

function sniff3d(b: Buffer, size: number): SniffedContent | undefined {
  const model = (format: string, mimeType: string): SniffedContent => ({ family: '3d', format, mimeType });
  if (ascii(b, 0, 4) === 'glTF') return model('glb', 'model/gltf-binary');
  if (ascii(b, 0, 18) === 'Kaydara FBX Binary') return model('fbx', 'application/x-fbx');
  if (/^ply\r?\n/.test(ascii(b, 0, 5))) return model('ply', 'application/x-ply');
  // USDZ: a zip whose first entry is a .usd/.usda/.usdc file.
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) && b.length >= 30) {
    const nameLength = b.readUInt16LE(26);
    const firstName = ascii(b, 30, 30 + nameLength);
    return /\.usd[ac]?$/i.test(firstName) ? model('usdz', 'model/vnd.usdz+zip') : undefined;
  }
  const text = utf8Prefix(b);
  if (text === undefined) return binaryStl(b, size);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') && /"asset"\s*:/.test(trimmed) && /"version"\s*:/.test(trimmed))
    return model('gltf', 'model/gltf+json');
  if (/^solid[ \t]/.test(trimmed) && /\bfacet\b|\bendsolid\b/.test(trimmed)) return model('stl', 'model/stl');
  if (looksLikeObj(trimmed)) return model('obj', 'model/obj');
  return undefined;
}

/** The head as text when it is text (no NULs, decodes as UTF-8 except perhaps a cut last character). */
function utf8Prefix(b: Buffer): string | undefined {
  if (b.includes(0)) return undefined;
  const text = b.toString('utf8');
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  return bad <= 1 ? text : undefined;
}

/** Wavefront OBJ: only comments, blank lines and OBJ statements, with at least one vertex. */
function looksLikeObj(text: string): boolean {
  const lines = text.split(/\r?\n/).slice(0, -1); // the last line may be cut
  let vertices = 0;
  for (const line of lines) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    if (!/^(v|vt|vn|vp|f|l|p|o|g|s|usemtl|mtllib|cstype|deg|curv|surf|parm|end)(\s|$)/.test(l)) return false;
    if (/^v\s/.test(l)) vertices++;
  }
  return vertices > 0;
}

/** Binary STL has no magic: an 80-byte header, then a triangle count; the file is exactly 84 + 50 × count bytes. */
function binaryStl(b: Buffer, size: number): SniffedContent | undefined {
  if (b.length < 84 || size < 84) return undefined;
  return 84 + 50 * b.readUInt32LE(80) === size
    ? { family: '3d', format: 'stl', mimeType: 'model/stl' }
    : undefined;
}
