import { pino, type Logger } from 'pino';
import { REDACTED_PATHS, summariseError } from '@platform/http';

/**
 * The process's own log (start-up, relay, delivery worker, jobs, shutdown): JSON lines like the
 * services' request logs, with the same redaction; errors by class, code and frames only.
 */
export function processLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    base: { pid: process.pid, component: 'process' },
  });
}

/** Logs an error without its message (messages of database errors quote personal values). */
export function logError(logger: Logger, error: unknown, msg: string): void {
  logger.error({ error: summariseError(error) }, msg);
}
