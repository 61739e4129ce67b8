import { sniff, SNIFF_BYTES, type SniffedContent } from '@genasset/storage';
import { EngineError, type EngineContext, type OutputFile, type StoredOutput } from '../engine';

/** Slice of base64 text decoded at a time (a multiple of 4: each slice decodes on its own). */
const BASE64_SLICE = 64 * 1024;

/**
 * One file a backend returned, on its way to storage: its bytes as chunks that already refuse more
 * than the backend's maxOutputBytes (BackendHttp.open for a URL, {@link base64Chunks} for base64 in
 * a JSON answer), and the asset it becomes.
 */
export interface BackendFile {
  /** How errors name it: `output 1`, `ComfyUI_00001_.png`, `image 2`. */
  what: string;
  chunks: AsyncIterable<Buffer>;
  file: Omit<OutputFile, 'bytes' | 'mimeType'>;
  /**
   * The media type the backend declared, where its protocol carries one (the http engine's): bytes
   * the sniffer knows keep their sniffed type, others the declared one; a file declared an image
   * must be one (SVG, which the sniffer does not type, is checked where it becomes an asset).
   * Absent: the file must be an image (the image backends).
   */
  declared?: string;
}

/**
 * Stores one backend output the one way every backend engine does (ComfyUI, OpenAI, Replicate,
 * Cog): streamed into the object store (EngineContext.writeOutputStream) — its type sniffed from
 * its first bytes by the storage library's sniffer, an output the mode cannot take refused before
 * anything is stored, the size limit enforced by the chunks as they arrive (the object is removed
 * when they throw). A context that changes outputs before storing them has no stream: there the
 * same chunks (still limited) are gathered and the same check applied before writeOutput.
 */
export async function storeBackendFile(ctx: EngineContext, label: string, mode: string, output: BackendFile): Promise<StoredOutput> {
  const type = (head: Buffer) => typeOf(head, label, mode, output);
  if (ctx.writeOutputStream) return ctx.writeOutputStream({ file: output.file, chunks: output.chunks, type });
  const chunks: Buffer[] = [];
  for await (const chunk of output.chunks) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  return ctx.writeOutput({ ...output.file, bytes, mimeType: type(bytes.subarray(0, SNIFF_BYTES)) });
}

/** The output's type from its first bytes (see BackendFile.declared), else an EngineError saying what the output is instead. */
function typeOf(head: Buffer, label: string, mode: string, output: BackendFile): string {
  const found = sniff(head, head.length);
  if (found?.family === 'image') return found.mimeType;
  const declared = output.declared;
  if (declared === 'image/svg+xml') return declared;
  if (declared !== undefined && !declared.startsWith('image/')) return found?.mimeType ?? declared;
  const needs = declared ? `declared ${declared}` : `${mode} needs an image`;
  throw new EngineError(`${label} produced ${output.what}, which is not an image (${needs}): ${describe(head, found)}`);
}

/** What a refused output looks like, for the job's reason: another type, text (its start), empty or unknown bytes. */
function describe(head: Buffer, found: SniffedContent | undefined): string {
  if (found) return `it is ${found.mimeType}`;
  if (head.length === 0) return 'it is empty';
  const text = head.subarray(0, 200).toString('utf8');
  // Text: valid UTF-8 without control characters other than whitespace.
  if (!text.includes('\uFFFD') && !/[\u0000-\u0008\u000E-\u001F]/.test(text))
    return `it is text (${JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 60))})`;
  return 'its first bytes are of no known format';
}

/** The refusal of an output past the limit, the same wherever the limit is found; `setting` names where the limit is set. */
export function tooLarge(label: string, what: string, size: string, maxBytes: number, setting = "the backend's maxOutputBytes"): EngineError {
  return new EngineError(`${label} produced ${what} of ${size} bytes; this worker takes at most ${maxBytes} (${setting})`);
}

/**
 * The bytes of base64 text (OpenAI's `b64_json`, a Cog data URL) as chunks, decoded a slice at a
 * time: its decoded size is computed from its length and refused past `maxBytes` before anything is
 * decoded, so the decoded file is never held whole beside its text.
 */
export function base64Chunks(text: string, maxBytes: number, refuse: (size: string) => EngineError): AsyncIterable<Buffer> {
  const body = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  const size = Math.floor((body.length * 3) / 4) - padding;
  if (size > maxBytes) throw refuse(String(size));
  return (async function* () {
    for (let at = 0; at < body.length; at += BASE64_SLICE) yield Buffer.from(body.slice(at, at + BASE64_SLICE), 'base64');
  })();
}

/**
 * The bytes of a data URL (`data:[<type>][;base64],<data>`) as chunks, limited as base64Chunks
 * limits them (percent-encoded data takes 1 to 3 characters a byte: text longer than three times
 * the limit is refused before decoding). The declared type is ignored: the bytes are sniffed.
 */
export function dataUrlChunks(url: string, maxBytes: number, invalid: () => EngineError, refuse: (size: string) => EngineError): AsyncIterable<Buffer> {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0) throw invalid();
  const header = url.slice(5, comma);
  const data = url.slice(comma + 1);
  if (/;base64$/i.test(header)) return base64Chunks(data, maxBytes, refuse);
  if (data.length > 3 * maxBytes) throw refuse(`more than ${maxBytes}`);
  // Percent-escapes are bytes (not UTF-8: decodeURIComponent would refuse binary).
  const bytes = Buffer.from(data.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  if (bytes.length > maxBytes) throw refuse(String(bytes.length));
  return (async function* () {
    yield bytes;
  })();
}

/**
 * The most a JSON answer carrying `files` outputs inline (base64, data URLs) is read to: each file
 * at the limit as base64, plus 1 MiB for the rest of the answer. Past it the answer is refused as
 * it arrives (BackendHttp.json), before any file in it is decoded.
 */
export function inlineAnswerBytes(maxOutputBytes: number, files: number): number {
  return Math.max(1, files) * Math.ceil(maxOutputBytes / 3) * 4 + 1024 * 1024;
}
