import { NotFoundError, UsageError, type CommandContext } from './commands.js';
import { updateApplication } from '@platform/auth';

const MAX_PER_MINUTE = 1_000_000;
/** RATE_LIMIT_PER_MINUTE's default, for a context that does not say the deployment's. */
export const DEFAULT_PER_MINUTE = 600;

/** `--per-minute`: a whole number of requests, 1 to 1,000,000. */
function perMinute(value: string): number {
  const text = value.trim();
  const n = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_PER_MINUTE))
    throw new UsageError(`--per-minute must be a whole number from 1 to 1,000,000 (got "${value}").`);
  return n;
}

/**
 * `app set-rate-limit --app <id> (--per-minute <n> | --default)`: the application's own budget
 * per minute, shared by all its keys across instances, or back to the deployment's
 * RATE_LIMIT_PER_MINUTE. Running services cache keys for 4 s, so the change takes effect within that.
 */
export async function setRateLimit(
  ctx: CommandContext,
  input: { app?: string; 'per-minute'?: string; default?: boolean },
): Promise<object> {
  if (!input.app) throw new UsageError('--app is required.');
  const given = input['per-minute'];
  if ((given !== undefined) === (input.default === true))
    throw new UsageError('Give exactly one of --per-minute <n> and --default.');
  const budget = given === undefined ? null : perMinute(given);
  const app = await updateApplication(ctx.db, input.app, { rate_limit_per_minute: budget });
  if (!app) throw new NotFoundError(`No application ${input.app}.`);
  return {
    id: app.id,
    name: app.name,
    rate_limit_per_minute: app.rate_limit_per_minute,
    effective_per_minute: app.rate_limit_per_minute ?? ctx.rateLimitPerMinute ?? DEFAULT_PER_MINUTE,
  };
}
