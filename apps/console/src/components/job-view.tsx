import { Link } from 'react-router';
import { get, send } from '../api/api-client';
import { FINAL_JOB_STATUSES, type Asset, type Job } from '../api/types';
import { useApi } from '../api/use-api';
import { AssetGrid } from './asset-thumb';
import { ErrorMessage } from './error-message';
import { formatDate } from './format';
import { StatusBadge } from './status-badge';

const POLL_MS = 1000;

/** A job, polled every second until it is final (GET /v1/jobs/{id}), then its output assets. */
export function JobView({ jobId }: { jobId: string }) {
  const job = useLiveJob(jobId);
  if (job.error && !job.data) return <ErrorMessage error={job.error} />;
  if (!job.data) return <p className="muted">Loading job…</p>;
  const j = job.data;
  const final = FINAL_JOB_STATUSES.includes(j.status);
  const errorMessage =
    typeof j.metadata.output.errorMessage === 'string' ? j.metadata.output.errorMessage : undefined;
  return (
    <div className="job" aria-busy={!final}>
      <dl className="details">
        <dt>Job</dt>
        <dd>
          <Link to={`/jobs/${j.jobId}`}>{j.jobId}</Link> ({j.jobType})
        </dd>
        <dt>Status</dt>
        <dd data-testid="job-status">
          <StatusBadge status={j.status} />
        </dd>
        <dt>
          <label htmlFor={`progress-${j.jobId}`}>Progress</label>
        </dt>
        <dd>
          <progress id={`progress-${j.jobId}`} max={1} value={j.progress} /> {Math.round(j.progress * 100)} %
        </dd>
      </dl>
      {errorMessage && (
        <p className="error" role="alert">
          {errorMessage}
        </p>
      )}
      <h3>History</h3>
      <ol className="history">
        {j.statusHistory.map((entry) => (
          <li key={`${entry.status}-${entry.date}`}>
            {entry.status} <span className="muted">{formatDate(entry.date)}</span>
          </li>
        ))}
      </ol>
      {j.status === 'success' && <JobOutputs assetIds={j.metadata.assetIds} />}
      <ErrorMessage error={job.error} />
    </div>
  );
}

function useLiveJob(jobId: string) {
  return useApi(() => get<{ job: Job }>(`/v1/jobs/${jobId}`).then((r) => r.job), jobId, {
    pollMs: POLL_MS,
    // A final job never changes again.
    pollWhile: (job) => !job || !FINAL_JOB_STATUSES.includes(job.status),
  });
}

function JobOutputs({ assetIds }: { assetIds: string[] }) {
  const key = assetIds.join(',');
  const outputs = useApi(
    () =>
      assetIds.length
        ? send<{ assets: Asset[] }>('POST', '/v1/assets/get-bulk', { assetIds }).then((r) => r.assets)
        : Promise.resolve([]),
    key,
  );
  return (
    <>
      <h3>Outputs</h3>
      <ErrorMessage error={outputs.error} />
      {outputs.data && <AssetGrid assets={outputs.data} label="Outputs" />}
    </>
  );
}
