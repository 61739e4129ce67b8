import 'reflect-metadata';
import { JOBS_API } from '@genasset/contracts';
import { runProcess } from '@genasset/runtime';
import { JOB_SCHEMA, JOB_SERVICE, JobServiceModule } from '@genasset/service-job';

// job-service as its own process (distributed mode): DATABASE_URL, KAFKA_BROKERS, S3_* from the environment.
runProcess({
  name: JOB_SERVICE,
  description: 'Jobs, creative units and the operator admin API',
  services: [{ name: JOB_SERVICE, schema: JOB_SCHEMA, module: JobServiceModule, provides: [JOBS_API] }],
  adminApi: true,
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
