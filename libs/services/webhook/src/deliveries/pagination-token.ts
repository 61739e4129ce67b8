import { cursorTime, pageToken } from '@genasset/persistence';

/** A position in the newest-first delivery list: the last item of the previous page. */
export interface DeliveryCursor {
  createdAt: Date;
  id: string;
  /** filtersDigest of the list that issued the token; absent for the unfiltered log. */
  filters?: string;
}

/**
 * A page starts strictly after (createdAt, id) in (createdAt desc, id desc) order, so deliveries
 * recorded meanwhile never shift or repeat items of later pages. A filtered list's token also
 * carries the digest of its filters.
 */
export function encodeCursor(cursor: DeliveryCursor): string {
  const position: string[] = [cursor.createdAt.toISOString(), cursor.id];
  if (cursor.filters !== undefined) position.push(cursor.filters);
  return pageToken.encode(position);
}

/** Undefined for anything we did not issue. */
export function decodeCursor(token: string): DeliveryCursor | undefined {
  return pageToken.read(token, readCursor);
}

function readCursor(value: unknown): DeliveryCursor | undefined {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) return undefined;
  const [at, id, filters] = value as unknown[];
  if (typeof at !== 'string' || typeof id !== 'string' || !id.startsWith('whevent_')) return undefined;
  if (value.length === 3 && typeof filters !== 'string') return undefined;
  const createdAt = cursorTime(at);
  if (!createdAt) return undefined;
  return typeof filters === 'string' ? { createdAt, id, filters } : { createdAt, id };
}
