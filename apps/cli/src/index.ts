export { runCli, USAGE, type CliResult } from './run.js';
export { UsageError, type CommandContext } from './commands.js';
