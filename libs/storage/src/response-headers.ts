const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTENT_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;[\x20-\x7e]*)?$/;

/** Rejects names that could split or forge a header. */
export function validateDownloadName(name: string): string {
  if (!name || CONTROL.test(name) || name.length > 255) {
    throw new RangeError('downloadName must be 1-255 characters without control characters');
  }
  return name;
}

export function validateContentType(type: string): string {
  if (!CONTENT_TYPE.test(type) || type.length > 255)
    throw new RangeError(`not a media type: ${JSON.stringify(type.slice(0, 100))}`);
  return type;
}

/**
 * `attachment` with an ASCII fallback for old clients and the exact UTF-8
 * name in `filename*` (RFC 6266 / RFC 5987).
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
