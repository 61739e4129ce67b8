/**
 * The signed-in API key. Kept in sessionStorage only: it lasts as long as the tab, is never
 * written to a URL, a cookie or localStorage, and the console has no server side to hold it.
 */
export interface Me {
  id: string;
  teamId: string;
  projectId: string | null;
  role: 'admin' | 'member';
  scopes: string[];
}

export interface Session {
  keyId: string;
  secret: string;
  me: Me;
}

const STORAGE_KEY = 'genasset.console.session';

export function loadSession(): Session | null {
  const raw = sessionStorage.getItem(STORAGE_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as Session;
  } catch {
    sessionStorage.removeItem(STORAGE_KEY);
    return null;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** `Basic base64(key:secret)`; key ids and secrets are ASCII, so btoa is enough. */
export function basicAuthorization(keyId: string, secret: string): string {
  return `Basic ${btoa(`${keyId}:${secret}`)}`;
}
