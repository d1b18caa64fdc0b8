export {
  defineService,
  type ServiceDescriptor,
  type PortSetting,
  type IntegerSetting,
  type DirectorySetting,
  type ServiceSetting,
  type ResolvedSettings,
  type StartCheck,
  type StartCheckDeps,
} from './descriptor.js';
export {
  defineJob,
  JobRefusal,
  type JobDefinition,
  type JobCatalogue,
  type JobContext,
  type JobQueue,
  type JobRunLog,
} from './jobs.js';
export { createJobQueue, startJobWorker, runJob, JOBS_QUEUE } from './job-queue.js';
export {
  createServiceApp,
  DECODE_TIMEOUT_MS,
  type ServiceAppDeps,
  type ServiceAppOptions,
  type ApiContext,
  type RequestSample,
} from './service-app.js';
export { callersOfVersion, type ApiDeprecation } from './api-version.js';
export type { ReadinessCheck } from './health.js';
export type { RateLimitSettings } from './rate-limit.js';
export { RateLimitCounter, RATE_LIMIT_WINDOW_MS, type Budget } from './rate-limit-counter.js';
export { IDEMPOTENCY_PRUNE_JOB, pruneIdempotencyKeys, forgetStoredResponsesMentioning } from './idempotency-prune.js';
export { RUNNING_LEASE_MS } from './idempotency.js';
