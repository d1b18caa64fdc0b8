import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '@platform/db';
import { summariseError } from '@platform/http';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);
const CONNECTION_MESSAGES =
  /Connection is closed|connect ETIMEDOUT|Connection terminated|terminating connection due to administrator command|the database system is (shutting down|starting up)|Can't reach database server|Server has closed the connection|Reached the max retries per request limit|All sentinels are unreachable/i;

/**
 * The short name of an expected fault of a dependency (refused or dropped connection, timeout,
 * PostgreSQL shutting down), or undefined for anything else. Such faults are logged without
 * frames: the stack says nothing an operator can act on.
 */
export function classifiedFault(error: unknown): string | undefined {
  for (
    let current = error, depth = 0;
    current instanceof Error && depth < 4;
    current = (current as { cause?: unknown }).cause, depth++
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
    if (current instanceof AggregateError && current.errors.some((inner) => classifiedFault(inner)))
      return classifiedFault(current.errors.find((inner) => classifiedFault(inner)));
    if (CONNECTION_MESSAGES.test(current.message)) return 'connection lost';
  }
  // The rest of what the API answers with 503: a connection lost while checked out, a pool exhausted,
  // PostgreSQL's codes inside Prisma's own errors.
  return isDatabaseUnavailable(error) ? 'database unavailable' : undefined;
}

/**
 * Errors of the process's background work (relay, delivery worker, jobs), logged so that a fault
 * repeating many times a second gives one line, then one line per interval with the count of the
 * repeats, instead of a line (and a stack) each time.
 */
export class FaultLog {
  private readonly windows = new Map<string, { repeats: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly logger: Pick<Logger, 'error' | 'warn'>,
    private readonly intervalMs = 10_000,
  ) {}

  error(error: unknown, message: string): void {
    const fault = classifiedFault(error);
    const summary = summariseError(error);
    const key = `${message}|${summary.type}|${summary.code ?? fault ?? ''}`;
    const open = this.windows.get(key);
    if (open) {
      open.repeats++;
      return;
    }
    if (fault)
      this.logger.warn(
        { fault, error: { type: summary.type, ...(summary.code ? { code: summary.code } : {}) } },
        message,
      );
    else this.logger.error({ error: summary }, message);
    const window = { repeats: 0, timer: setTimeout(() => this.closeWindow(key, message), this.intervalMs) };
    window.timer.unref();
    this.windows.set(key, window);
  }

  private closeWindow(key: string, message: string): void {
    const window = this.windows.get(key);
    this.windows.delete(key);
    if (window && window.repeats > 0)
      this.logger.warn(
        { repeats: window.repeats, interval_s: this.intervalMs / 1000 },
        `${message} (repeated ${window.repeats} times in the last ${this.intervalMs / 1000} s)`,
      );
  }
}
