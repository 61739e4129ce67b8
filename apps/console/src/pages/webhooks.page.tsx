import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { get, send } from '../api/api-client';
import type { WebhookEndpoint } from '../api/types';
import { useAction, useApi } from '../api/use-api';
import { ErrorMessage } from '../components/error-message';
import { StatusBadge } from '../components/status-badge';
import { useMe, webhookOwnerPath } from '../session-context';

export function WebhooksPage() {
  const me = useMe();
  const base = `${webhookOwnerPath(me)}/webhook-endpoints`;
  const list = useApi(
    () => get<{ webhookEndpoints: WebhookEndpoint[] }>(base).then((r) => r.webhookEndpoints),
    base,
  );
  const [created, setCreated] = useState<WebhookEndpoint>();
  const [confirming, setConfirming] = useState<string>();
  const update = useAction(async (id: string, enabled: boolean) => {
    await send('PUT', `${base}/${id}`, { enabled });
    list.reload();
  });
  const remove = useAction(async (id: string) => {
    await send('DELETE', `${base}/${id}`);
    setConfirming(undefined);
    list.reload();
  });

  return (
    <section>
      <h1>Webhook endpoints</h1>
      <p className="muted">
        {me.projectId ? `Endpoints of project ${me.projectId}.` : `Endpoints of team ${me.teamId}.`} Each
        receives signed POSTs for the events it subscribes to.
      </p>
      <CreateEndpoint
        base={base}
        onCreated={(endpoint) => {
          setCreated(endpoint);
          list.reload();
        }}
      />
      {created?.secret && <SecretOnce endpoint={created} onDone={() => setCreated(undefined)} />}
      <ErrorMessage error={list.error ?? update.error ?? remove.error} />
      {list.data && list.data.length === 0 && <p className="muted">No endpoints yet.</p>}
      {list.data && list.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Attempts (failed)</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td>
                    <Link to={`/webhooks/${endpoint.id}`} aria-label={`Deliveries of ${endpoint.url}`}>
                      {endpoint.url}
                    </Link>
                    {endpoint.description && <div className="muted">{endpoint.description}</div>}
                  </td>
                  <td>{endpoint.enabledEvents.join(', ')}</td>
                  <td>
                    <StatusBadge status={endpoint.enabled ? 'active' : 'paused'} />
                  </td>
                  <td>
                    {endpoint.nbTotalCalls} ({endpoint.nbFailedCalls})
                  </td>
                  <td className="row-actions">
                    <Link to={`/webhooks/${endpoint.id}`}>Deliveries</Link>
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => void update.run(endpoint.id, !endpoint.enabled)}
                    >
                      {endpoint.enabled ? 'Pause' : 'Resume'}
                    </button>
                    {confirming === endpoint.id ? (
                      <>
                        <button type="button" className="danger" onClick={() => void remove.run(endpoint.id)}>
                          Confirm delete
                        </button>
                        <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
                          Keep
                        </button>
                      </>
                    ) : (
                      <button type="button" className="secondary" onClick={() => setConfirming(endpoint.id)}>
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">
        Deleting an endpoint deletes its delivery log too; pausing keeps it, and events meanwhile are not
        sent.
      </p>
    </section>
  );
}

function CreateEndpoint({
  base,
  onCreated,
}: {
  base: string;
  onCreated: (endpoint: WebhookEndpoint) => void;
}) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('*');
  const [description, setDescription] = useState('');
  const create = useAction(async () => {
    const { webhookEndpoint } = await send<{ webhookEndpoint: WebhookEndpoint }>('POST', base, {
      url: url.trim(),
      enabledEvents: events
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
      ...(description.trim() ? { description: description.trim() } : {}),
    });
    setUrl('');
    setDescription('');
    onCreated(webhookEndpoint);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <details className="panel" open>
      <summary>New endpoint</summary>
      <form onSubmit={submit} className="grid-form">
        <div className="field">
          <label htmlFor="endpoint-url">URL</label>
          <input
            id="endpoint-url"
            type="url"
            required
            placeholder="https://example.com/webhooks"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="endpoint-events">Events</label>
          <input
            id="endpoint-events"
            required
            aria-describedby="endpoint-events-hint"
            value={events}
            onChange={(e) => setEvents(e.target.value)}
          />
          <p id="endpoint-events-hint" className="hint">
            Comma-separated types (generation.completed, …), or * for every event.
          </p>
        </div>
        <div className="field">
          <label htmlFor="endpoint-description">Description (optional)</label>
          <input
            id="endpoint-description"
            maxLength={1000}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <div className="actions">
          <button type="submit" disabled={create.pending}>
            Create endpoint
          </button>
        </div>
      </form>
      <ErrorMessage error={create.error} />
    </details>
  );
}

/** The signing secret is in the creation response only: shown here once, then gone. */
function SecretOnce({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="panel secret" role="status">
      <p>
        Endpoint <code>{endpoint.id}</code> created. Its signing secret is shown <strong>only now</strong>:
        store it where your receiver can verify signatures with it.
      </p>
      <p>
        <label htmlFor="endpoint-secret">Signing secret</label>
        <input
          id="endpoint-secret"
          readOnly
          value={endpoint.secret}
          onFocus={(e) => e.target.select()}
          className="mono"
        />
      </p>
      <div className="actions">
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(endpoint.secret ?? '').then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy secret'}
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}
