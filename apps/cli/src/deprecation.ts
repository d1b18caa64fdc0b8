import { UsageError, type CommandContext } from './commands.js';

/** `app set-owner --app <id> --email <address>`. */
export async function setOwner(_ctx: CommandContext, _input: { app?: string; email?: string }): Promise<object> {
  throw new UsageError('app set-owner is not available yet.');
}

/** `deprecation notices --version <v> [--since 30d] [--dry-run]`. */
export async function deprecationNotices(_ctx: CommandContext, _input: { version?: string; since?: string; 'dry-run'?: boolean }): Promise<object> {
  throw new UsageError('deprecation notices is not available yet.');
}
