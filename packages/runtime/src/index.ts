export { loadConfig, ConfigError, VARIABLES, variablesOf, type Config, type ServiceConfig, type ServiceSettingsSpec } from './config.js';
export { openDatabase, type ResolvedDatabase } from './database.js';
export { serve, configOrExit, headersOf, type ServiceEntry, type ServiceDeps, type ServeOptions } from './serve.js';
export { openRedis, RedisUnavailableError, type ResolvedRedis } from './redis.js';
export { registerSchedules, startScheduledJobs, runJob, jobsOf, SCHEDULED_JOBS_QUEUE, WEBHOOK_HISTORY_JOB } from './jobs.js';
