import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { get, send } from '../api/api-client';
import type { WebhookEndpoint, WebhookEvent } from '../api/types';
import { useAction, useApi } from '../api/use-api';
import { ErrorMessage } from '../components/error-message';
import { formatDate, localInputToIso } from '../components/format';
import { QueryFilters } from '../components/query-filters';
import { StatusBadge } from '../components/status-badge';
import { useMe, webhookOwnerPath } from '../session-context';

interface EventList {
  items: WebhookEvent[];
  nextPaginationToken?: string;
}

const LIVE_MS = 2000;

/** An endpoint's delivery log: filters, attempts, payloads, resend, and recovery of a time window. */
export function DeliveriesPage() {
  const { endpointId = '' } = useParams();
  const me = useMe();
  const endpointBase = `${webhookOwnerPath(me)}/webhook-endpoints/${endpointId}`;
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(params.entries());
  const [live, setLive] = useState(true);
  const [pages, setPages] = useState<(string | undefined)[]>([undefined]);
  const token = pages[pages.length - 1];
  const endpoint = useApi(
    () =>
      get<{ webhookEndpoints: WebhookEndpoint[] }>(`${webhookOwnerPath(me)}/webhook-endpoints`).then((r) =>
        r.webhookEndpoints.find((e) => e.id === endpointId),
      ),
    endpointId,
  );
  const events = useApi(
    () => get<EventList>(`${endpointBase}/events`, { ...filters, pageSize: 20, paginationToken: token }),
    `${endpointBase}?${params.toString()}|${token ?? ''}`,
    { pollMs: live ? LIVE_MS : undefined },
  );
  const template = me.projectId
    ? '/v1/projects/{projectId}/webhook-endpoints/{webhookEndpointId}/events'
    : '/v1/teams/{teamId}/webhook-endpoints/{webhookEndpointId}/events';

  return (
    <section>
      <p>
        <Link to="/webhooks">← Webhook endpoints</Link>
      </p>
      <h1>Deliveries</h1>
      {endpoint.data && (
        <p>
          To <code>{endpoint.data.url}</code>{' '}
          <StatusBadge status={endpoint.data.enabled ? 'active' : 'paused'} />
        </p>
      )}
      {endpoint.data === undefined && !endpoint.loading && !endpoint.error && (
        <p className="error" role="alert">
          This endpoint does not exist (any more).
        </p>
      )}
      <ErrorMessage error={endpoint.error} />
      <QueryFilters
        service="webhook-dispatcher"
        path={template}
        skip={['pageSize', 'paginationToken']}
        current={filters}
        onApply={(next) => {
          setPages([undefined]);
          setParams(next);
        }}
      />
      <div className="actions">
        <div className="field field-checkbox">
          <input
            id="deliveries-live"
            type="checkbox"
            checked={live}
            onChange={(e) => setLive(e.target.checked)}
          />
          <label htmlFor="deliveries-live">Refresh every 2 s</label>
        </div>
        <button type="button" className="secondary" onClick={events.reload}>
          Refresh now
        </button>
      </div>
      <ErrorMessage error={events.error} />
      {events.data && events.data.items.length === 0 && <p className="muted">No deliveries.</p>}
      {events.data && events.data.items.length > 0 && (
        <ul className="deliveries" aria-label="Deliveries, newest first">
          {events.data.items.map((event) => (
            <Delivery key={event.id} event={event} endpointBase={endpointBase} onResent={events.reload} />
          ))}
        </ul>
      )}
      <div className="actions">
        {pages.length > 1 && (
          <button type="button" className="secondary" onClick={() => setPages((p) => p.slice(0, -1))}>
            Newer
          </button>
        )}
        {events.data?.nextPaginationToken && (
          <button
            type="button"
            className="secondary"
            onClick={() => setPages((p) => [...p, events.data?.nextPaginationToken])}
          >
            Older
          </button>
        )}
      </div>
      <Recover endpointBase={endpointBase} onQueued={events.reload} />
    </section>
  );
}

function Delivery({
  event,
  endpointBase,
  onResent,
}: {
  event: WebhookEvent;
  endpointBase: string;
  onResent: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [resent, setResent] = useState<string>();
  const last = event.attempts[event.attempts.length - 1];
  const resend = useAction(async () => {
    const { webhookEvent } = await send<{ webhookEvent: WebhookEvent }>(
      'POST',
      `${endpointBase}/events/${event.id}/resend`,
    );
    setResent(webhookEvent.id);
    onResent();
  });
  const detailsId = `delivery-${event.id}`;
  return (
    <li className="delivery" data-status={event.status}>
      <div className="delivery-head">
        <StatusBadge status={event.status} />
        <span className="delivery-type">{event.type}</span>
        <code className="delivery-id">{event.id}</code>
        <span className="muted">
          {event.attempts.length} attempt{event.attempts.length === 1 ? '' : 's'}
          {last ? `, last answered ${last.responseStatusCode}` : ''} · {formatDate(event.createdAt)}
        </span>
        {event.resendOf && <span className="muted">resend of {event.resendOf}</span>}
      </div>
      <div className="actions">
        <button
          type="button"
          className="secondary"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide details' : 'Details'}
        </button>
        {/* The API resends final deliveries only (409 while one of the event is created or retrying). */}
        {(event.status === 'success' || event.status === 'failed') && (
          <button type="button" onClick={() => void resend.run()} disabled={resend.pending}>
            Resend
          </button>
        )}
      </div>
      {resent && (
        <p role="status" className="muted">
          Resent as <code>{resent}</code>.
        </p>
      )}
      <ErrorMessage error={resend.error} />
      {open && (
        <div id={detailsId} className="delivery-details">
          <h3>Attempts</h3>
          {event.attempts.length ? (
            <ol>
              {event.attempts.map((attempt, index) => (
                <li key={`${attempt.sentAt}-${index}`}>
                  {formatDate(attempt.sentAt)}: answered{' '}
                  <strong>
                    {attempt.responseStatusCode === -1 ? 'error on our side' : attempt.responseStatusCode}
                  </strong>
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">Not attempted yet.</p>
          )}
          <h3>Payload</h3>
          <pre className="json" tabIndex={0} role="region" aria-label="Payload">
            {JSON.stringify(event.payload, null, 2)}
          </pre>
        </div>
      )}
    </li>
  );
}

/** POST …/recover: sends again the endpoint's failed deliveries of a time window. */
function Recover({ endpointBase, onQueued }: { endpointBase: string; onQueued: () => void }) {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [queued, setQueued] = useState<number>();
  const recover = useAction(async () => {
    const answer = await send<{ queued: number }>('POST', `${endpointBase}/recover`, {
      since: localInputToIso(since),
      ...(until ? { until: localInputToIso(until) } : {}),
    });
    setQueued(answer.queued);
    onQueued();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQueued(undefined);
    void recover.run();
  };
  return (
    <details className="panel">
      <summary>Recover failed deliveries</summary>
      <form onSubmit={submit} className="grid-form">
        <div className="field">
          <label htmlFor="recover-since">Since</label>
          <input
            id="recover-since"
            type="datetime-local"
            required
            value={since}
            onChange={(e) => setSince(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="recover-until">Until (optional)</label>
          <input
            id="recover-until"
            type="datetime-local"
            value={until}
            onChange={(e) => setUntil(e.target.value)}
          />
        </div>
        <div className="actions">
          <button type="submit" disabled={recover.pending}>
            Recover
          </button>
        </div>
      </form>
      {queued !== undefined && (
        <p role="status">
          {queued} {queued === 1 ? 'delivery' : 'deliveries'} queued again.
        </p>
      )}
      <ErrorMessage error={recover.error} />
    </details>
  );
}
