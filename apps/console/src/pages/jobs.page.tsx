import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { get } from '../api/api-client';
import type { Job } from '../api/types';
import { useApi } from '../api/use-api';
import { ErrorMessage } from '../components/error-message';
import { formatDate } from '../components/format';
import { QueryFilters } from '../components/query-filters';
import { StatusBadge } from '../components/status-badge';

interface JobList {
  jobs: Job[];
  nextPaginationToken?: string;
}

export function JobsPage() {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(params.entries());
  // Tokens of the pages before this one, so "Previous" works without the API going backwards.
  const [pages, setPages] = useState<(string | undefined)[]>([undefined]);
  const token = pages[pages.length - 1];
  const key = `${params.toString()}|${token ?? ''}`;
  const list = useApi(
    () => get<JobList>('/v1/jobs', { ...filters, pageSize: 20, paginationToken: token }),
    key,
    { pollMs: 3000 },
  );

  return (
    <section>
      <h1>Jobs</h1>
      <QueryFilters
        service="job-service"
        path="/v1/jobs"
        skip={['pageSize', 'paginationToken']}
        current={filters}
        onApply={(next) => {
          setPages([undefined]);
          setParams(next);
        }}
      />
      <ErrorMessage error={list.error} />
      {list.data && list.data.jobs.length === 0 && <p className="muted">No jobs.</p>}
      {list.data && list.data.jobs.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Jobs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.jobs.map((job) => (
                <tr key={job.jobId}>
                  <td>
                    <Link to={`/jobs/${job.jobId}`}>{job.jobId}</Link>
                  </td>
                  <td>{job.jobType}</td>
                  <td>
                    <StatusBadge status={job.status} />
                  </td>
                  <td>{Math.round(job.progress * 100)} %</td>
                  <td>{formatDate(job.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="actions">
        {pages.length > 1 && (
          <button type="button" className="secondary" onClick={() => setPages((p) => p.slice(0, -1))}>
            Previous page
          </button>
        )}
        {list.data?.nextPaginationToken && (
          <button
            type="button"
            className="secondary"
            onClick={() => setPages((p) => [...p, list.data?.nextPaginationToken])}
          >
            Next page
          </button>
        )}
      </div>
    </section>
  );
}
