import { useEffect, useRef } from 'react';
import { Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { AssetPage } from './pages/asset.page';
import { AssetsPage } from './pages/assets.page';
import { CollectionsPage } from './pages/collections.page';
import { CreditsPage } from './pages/credits.page';
import { DeliveriesPage } from './pages/deliveries.page';
import { GeneratePage } from './pages/generate.page';
import { JobPage } from './pages/job.page';
import { JobsPage } from './pages/jobs.page';
import { SignInPage } from './pages/sign-in.page';
import { WebhooksPage } from './pages/webhooks.page';
import { SessionProvider, useSession } from './session-context';

const NAV = [
  ['/assets', 'Assets'],
  ['/collections', 'Collections'],
  ['/generate', 'Generate'],
  ['/jobs', 'Jobs'],
  ['/webhooks', 'Webhooks'],
  ['/credits', 'Credits'],
] as const;

export function App() {
  return (
    <SessionProvider>
      <Shell />
    </SessionProvider>
  );
}

function Shell() {
  const { session, signOut } = useSession();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  // After client-side navigation, move focus to the new page so keyboard and screen-reader users start there.
  useEffect(() => {
    main.current?.focus();
  }, [location.pathname]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">genasset console</span>
        {session && (
          <>
            <nav aria-label="Main">
              <ul>
                {NAV.map(([to, label]) => (
                  <li key={to}>
                    <NavLink to={to}>{label}</NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="who">
              <span title={`team ${session.me.teamId}`}>
                {session.me.projectId ?? session.me.teamId} · {session.me.role}
              </span>
              <button type="button" className="link-button" onClick={signOut}>
                Sign out
              </button>
            </div>
          </>
        )}
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Routes>
          {/* Once signed in, back to the page that asked for it (kept in the redirect's state, never in the URL). */}
          <Route
            path="/sign-in"
            element={session ? <Navigate to={returnTo(location.state)} replace /> : <SignInPage />}
          />
          {session ? (
            <>
              <Route path="/" element={<Navigate to="/assets" replace />} />
              <Route path="/assets" element={<AssetsPage />} />
              <Route path="/assets/:assetId" element={<AssetPage />} />
              <Route path="/collections" element={<CollectionsPage />} />
              <Route path="/generate" element={<GeneratePage />} />
              <Route path="/jobs" element={<JobsPage />} />
              <Route path="/jobs/:jobId" element={<JobPage />} />
              <Route path="/webhooks" element={<WebhooksPage />} />
              <Route path="/webhooks/:endpointId" element={<DeliveriesPage />} />
              <Route path="/credits" element={<CreditsPage />} />
              <Route path="*" element={<NotFound />} />
            </>
          ) : (
            <Route
              path="*"
              element={
                <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />
              }
            />
          )}
        </Routes>
      </main>
    </>
  );
}

function returnTo(state: unknown): string {
  const from = (state as { from?: string } | null)?.from;
  return from && from.startsWith('/') && !from.startsWith('/sign-in') ? from : '/assets';
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>This page of the console does not exist.</p>
    </section>
  );
}
