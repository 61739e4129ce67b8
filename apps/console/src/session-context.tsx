import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { call } from './api/api-client';
import { clearSession, loadSession, saveSession, type Me, type Session } from './api/session';

interface SessionState {
  session: Session | null;
  signIn: (keyId: string, secret: string) => Promise<void>;
  signOut: () => void;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(() => loadSession());
  const signIn = useCallback(async (keyId: string, secret: string) => {
    // GET /v1/me checks the pair; a refusal throws the API's message (e.g. 401 "Invalid API key or secret").
    const { body } = await call<{ apiKey: Me }>('/v1/me', { credentials: { keyId, secret } });
    const next = { keyId, secret, me: body.apiKey };
    saveSession(next);
    setSession(next);
  }, []);
  const signOut = useCallback(() => {
    clearSession();
    setSession(null);
  }, []);
  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The signed-in key (pages behind RequireSession only). */
export function useMe(): Me {
  const { session } = useSession();
  if (!session) throw new Error('not signed in');
  return session.me;
}

/** Where the key's webhook endpoints live: its project's, or its team's for a team-level key. */
export function webhookOwnerPath(me: Me): string {
  return me.projectId ? `/v1/projects/${me.projectId}` : `/v1/teams/${me.teamId}`;
}
