export { type ServiceDescriptor } from './service-descriptor';
export { ProcessModule, type ProcessModuleOptions } from './process-module';
export { runProcess, type RunProcessOptions, type RunningProcess } from './run-process';
export { reclaimLeasesAtStart } from './reclaim-leases';
export { bootstrapEmbeddedTenant, embeddedAdminToken, bootstrapPath, type BootstrapFile } from './embedded-bootstrap';
