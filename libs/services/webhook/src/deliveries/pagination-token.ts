import { cursorTime } from '@genasset/persistence';

/** A position in the newest-first delivery list: the last item of the previous page. */
export interface DeliveryCursor {
  createdAt: Date;
  id: string;
}

/**
 * Tokens are opaque to clients (base64url of JSON) and keyset-based: a page
 * starts strictly after (createdAt, id) in (createdAt desc, id desc) order,
 * so deliveries recorded meanwhile never shift or repeat items of later pages.
 */
export function encodeCursor(cursor: DeliveryCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString('base64url');
}

/** Undefined for anything we did not issue. */
export function decodeCursor(token: string): DeliveryCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [at, id] = value as unknown[];
    if (typeof at !== 'string' || typeof id !== 'string' || !id.startsWith('whevent_')) return undefined;
    const createdAt = cursorTime(at);
    return createdAt ? { createdAt, id } : undefined;
  } catch {
    return undefined;
  }
}
