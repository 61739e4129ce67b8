import { useState, type FormEvent } from 'react';
import { get, send } from '../api/api-client';
import type { CreditAlertThreshold, CreditUsage } from '../api/types';
import { useAction, useApi } from '../api/use-api';
import { ErrorMessage } from '../components/error-message';
import { formatDate } from '../components/format';
import { useMe } from '../session-context';

export function CreditsPage() {
  const me = useMe();
  const usage = useApi(() => get<CreditUsage>(`/v1/teams/${me.teamId}/usage`), me.teamId);
  return (
    <section>
      <h1>Team credit usage</h1>
      <ErrorMessage error={usage.error} />
      {usage.data && <Usage usage={usage.data} />}
      <Alerts teamId={me.teamId} />
    </section>
  );
}

function Usage({ usage }: { usage: CreditUsage }) {
  if (!usage.metered) {
    return (
      <p>
        This team has no credit plan: its jobs are not metered. <strong>{usage.usedCreativeUnits}</strong>{' '}
        creative units used so far.
      </p>
    );
  }
  const total = usage.totalPeriodCreativeUnits ?? 0;
  return (
    <>
      <dl className="details">
        <dt>Period</dt>
        <dd>
          {formatDate(usage.periodStart)} – {formatDate(usage.periodEnd)}
        </dd>
        <dt>Used</dt>
        <dd>{usage.usedCreativeUnits}</dd>
        <dt>Remaining</dt>
        <dd>
          {usage.remainingCreativeUnits} of {total}
        </dd>
      </dl>
      <label htmlFor="usage-meter">Share of the period&apos;s units remaining</label>{' '}
      <meter
        id="usage-meter"
        min={0}
        max={total || 1}
        low={total * 0.2}
        value={usage.remainingCreativeUnits ?? 0}
      />
    </>
  );
}

/** GET/PUT /v1/teams/{teamId}/credit-alerts: thresholds that send team.credit.threshold.crossed. */
function Alerts({ teamId }: { teamId: string }) {
  const alerts = useApi(
    () => get<{ thresholds: CreditAlertThreshold[] }>(`/v1/teams/${teamId}/credit-alerts`),
    teamId,
  );
  // Kept here: the form below is re-created from the saved thresholds once they are read back.
  const [saved, setSaved] = useState(false);
  return (
    <>
      <h2>Credit alerts</h2>
      <p className="muted">
        Each threshold sends the team event team.credit.threshold.crossed when the remaining units drop below
        it.
      </p>
      <ErrorMessage error={alerts.error} />
      {alerts.data && (
        <AlertsForm
          key={JSON.stringify(alerts.data.thresholds)}
          teamId={teamId}
          thresholds={alerts.data.thresholds}
          onSaved={() => {
            setSaved(true);
            alerts.reload();
          }}
          onEdit={() => setSaved(false)}
        />
      )}
      {saved && <p role="status">Saved.</p>}
    </>
  );
}

/** Edits a copy of the saved thresholds; saving replaces them all (PUT). */
function AlertsForm({
  teamId,
  thresholds,
  onSaved,
  onEdit,
}: {
  teamId: string;
  thresholds: CreditAlertThreshold[];
  onSaved: () => void;
  onEdit: () => void;
}) {
  const [rows, setRowsState] = useState(() =>
    thresholds.map((t) => ({ unit: t.unit, value: String(t.value) })),
  );
  const setRows = (next: typeof rows) => {
    onEdit();
    setRowsState(next);
  };
  const save = useAction(async () => {
    await send('PUT', `/v1/teams/${teamId}/credit-alerts`, {
      thresholds: rows.map((r) => ({ unit: r.unit, value: Number(r.value) })),
    });
    onSaved();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onEdit();
    void save.run();
  };
  const state = new Map(thresholds.map((t) => [`${t.unit}:${t.value}`, t]));

  return (
    <form onSubmit={submit} className="stack">
      {rows.length === 0 && <p className="muted">No thresholds.</p>}
      {rows.map((row, index) => {
        const current = state.get(`${row.unit}:${Number(row.value)}`);
        return (
          <fieldset key={index} className="inline-form">
            <legend className="visually-hidden">Threshold {index + 1}</legend>
            <div className="field">
              <label htmlFor={`alert-unit-${index}`}>Unit</label>
              <select
                id={`alert-unit-${index}`}
                value={row.unit}
                onChange={(e) =>
                  setRows(
                    rows.map((r, i) =>
                      i === index ? { ...r, unit: e.target.value as 'percent' | 'absolute' } : r,
                    ),
                  )
                }
              >
                <option value="percent">percent of the period</option>
                <option value="absolute">units remaining</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor={`alert-value-${index}`}>Value</label>
              <input
                id={`alert-value-${index}`}
                type="number"
                min={0}
                step="any"
                required
                value={row.value}
                onChange={(e) =>
                  setRows(rows.map((r, i) => (i === index ? { ...r, value: e.target.value } : r)))
                }
              />
            </div>
            {current && (
              <span className="muted">
                {current.armed ? 'armed' : `crossed ${formatDate(current.lastCrossedAt)}`}
              </span>
            )}
            <button
              type="button"
              className="secondary"
              onClick={() => setRows(rows.filter((_, i) => i !== index))}
            >
              Remove threshold {index + 1}
            </button>
          </fieldset>
        );
      })}
      <div className="actions">
        <button
          type="button"
          className="secondary"
          onClick={() => setRows([...rows, { unit: 'percent', value: '10' }])}
        >
          Add threshold
        </button>
        <button type="submit" disabled={save.pending}>
          Save alerts
        </button>
      </div>
      <ErrorMessage error={save.error} />
    </form>
  );
}
