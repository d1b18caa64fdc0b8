import { UsageError, type CommandContext } from './commands.js';

/** `app set-rate-limit --app <id> (--per-minute <n> | --default)`. */
export async function setRateLimit(_ctx: CommandContext, _input: { app?: string; 'per-minute'?: string; default?: boolean }): Promise<object> {
  throw new UsageError('app set-rate-limit is not available yet.');
}
