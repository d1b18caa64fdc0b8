export {
  loadConfig,
  ConfigError,
  VARIABLES,
  variablesOf,
  sandboxSecret,
  SANDBOX_SECRETS_FILE,
  type Config,
  type StorageConfig,
  type SandboxConfig,
  DEFAULT_SANDBOX,
  type ServiceConfig,
  type ServiceSettingsSpec,
  type ApiDeprecation,
  API_VERSIONS,
} from './config.js';
export {
  openDatabase,
  DatabaseUnavailableError,
  EMBEDDED_APP_ROLE,
  embeddedPostgresCredentials,
  type ResolvedDatabase,
} from './database.js';
export { serve, configOrExit, headersOf, type ServiceEntry, type ServiceDeps, type ServeOptions } from './serve.js';
export { openRedis, localRedisPassword, RedisUnavailableError, type ResolvedRedis } from './redis.js';
export {
  registerSchedules,
  startScheduledJobs,
  runJob,
  jobsOf,
  SCHEDULED_JOBS_QUEUE,
  WEBHOOK_HISTORY_JOB,
} from './jobs.js';
export { openStorage, blobsDir } from './storage.js';
export { openSandbox, openUploadSandbox, sandboxEntry } from './sandbox.js';
export { ProcessMetrics, startMetricsServer } from './metrics.js';
export {
  checkSharedSecrets,
  checkSharedSecretsOrExit,
  fingerprintOf,
  forgetSecretFingerprint,
  SecretMismatchError,
  SHARED_SECRET_NAMES,
  sharedSecretsOf,
  type SharedSecret,
  type SharedSecretName,
} from './secret-fingerprints.js';
