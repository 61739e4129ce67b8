export { JOB_SCHEMA, JOB_SERVICE } from './job.schema';
export { JobServiceModule } from './job.module';
