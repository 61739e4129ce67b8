import { PUBLIC_AUTH_TOKEN } from './principal';

export type Credentials =
  | { kind: 'basic'; key: string; secret: string }
  | { kind: 'public' }
  | { kind: 'none' }
  | { kind: 'malformed'; reason: string };

/** Parses `Authorization`: `Basic base64(<key>:<secret>)` or the literal public token. */
export function parseAuthorization(header: string | undefined): Credentials {
  if (!header) return { kind: 'none' };
  const value = header.trim();
  if (value === PUBLIC_AUTH_TOKEN) return { kind: 'public' };
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(value);
  if (!match) return { kind: 'malformed', reason: 'expected Authorization: Basic base64(<API_KEY>:<API_SECRET>)' };
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) {
    return { kind: 'malformed', reason: 'the Basic credentials must be base64(<API_KEY>:<API_SECRET>)' };
  }
  return { kind: 'basic', key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
