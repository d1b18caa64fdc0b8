export { defineService, type ServiceDescriptor, type PortSetting, type IntegerSetting } from './descriptor.js';
export { defineJob, JobRefusal, type JobDefinition, type JobCatalogue, type JobContext, type JobQueue } from './jobs.js';
export { createJobQueue, startJobWorker, runJob, JOBS_QUEUE } from './job-queue.js';
export { createServiceApp, type ServiceAppDeps, type ServiceAppOptions, type ApiContext } from './service-app.js';
