/** Parsing shared by the files route's GET (`FilesController`) and PUT (`PartUploadRoute`). */

export type Query = Record<string, string | string[] | undefined>;

/** A query parameter given once; a repeated one counts as absent. */
export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

/** The key is everything after `/files/` in the raw path, each segment percent-decoded. */
export function keyFromUrl(url: string): string | undefined {
  const path = url.split('?')[0];
  const marker = '/files/';
  const at = path.indexOf(marker);
  if (at < 0) return undefined;
  try {
    return path
      .slice(at + marker.length)
      .split('/')
      .map(decodeURIComponent)
      .join('/');
  } catch {
    return undefined;
  }
}
