import { Link, useParams } from 'react-router';
import { get } from '../api/api-client';
import type { Job } from '../api/types';
import { useApi } from '../api/use-api';
import { JobView } from '../components/job-view';

export function JobPage() {
  const { jobId = '' } = useParams();
  return (
    <section>
      <p>
        <Link to="/jobs">← Jobs</Link>
      </p>
      <h1>Job</h1>
      <JobView jobId={jobId} />
      <JobInput jobId={jobId} />
    </section>
  );
}

/** The validated request the job runs (images as asset ids). */
function JobInput({ jobId }: { jobId: string }) {
  const job = useApi(() => get<{ job: Job }>(`/v1/jobs/${jobId}`).then((r) => r.job), jobId);
  if (!job.data) return null;
  return (
    <>
      <h2>Input</h2>
      <pre className="json" tabIndex={0} role="region" aria-label="Job input">
        {JSON.stringify(job.data.metadata.input, null, 2)}
      </pre>
    </>
  );
}
