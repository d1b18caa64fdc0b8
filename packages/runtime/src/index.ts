export { loadConfig, ConfigError, VARIABLES, type Config } from './config.js';
export { openDatabase, type ResolvedDatabase } from './database.js';
export { serve, configOrExit, type ServiceEntry, type ServiceDeps } from './serve.js';
export { openRedis, RedisUnavailableError, type ResolvedRedis } from './redis.js';
export { registerSchedules, startScheduledJobs, SCHEDULED_JOBS_QUEUE, WEBHOOK_HISTORY_JOB, type ScheduledJob } from './jobs.js';
