import { CheckFailed, NotFoundError, UsageError, type CommandContext } from './commands.js';
import type { CliCommand } from './command-table.js';
import { parseCommandLine, wordsOf, type Flags } from './flags.js';
import { USAGE, commandHelp, commandNamed, groupHelp } from './help.js';

export { USAGE } from './help.js';

export interface CliResult {
  exitCode: number;
  output: string;
}

/** The help a command line asks for (`--help`, `-h`, `help [<command>]`), or undefined when it asks for none. */
export function helpFor(argv: readonly string[]): CliResult | undefined {
  const words = wordsOf(argv);
  const asked = argv.includes('--help') || argv.includes('-h') || words[0] === 'help';
  if (!asked) return undefined;
  const named = words[0] === 'help' ? words.slice(1) : words;
  if (named.length === 0) return { exitCode: 0, output: USAGE };
  const command = commandNamed(named);
  if (command) return { exitCode: 0, output: commandHelp(command) };
  const group = named.length === 1 ? groupHelp(named[0] === 'accounts' ? 'account' : named[0]) : undefined;
  if (group) return { exitCode: 0, output: group };
  return { exitCode: 2, output: `Unknown command "${named.join(' ')}".\n${USAGE}` };
}

interface ParsedCommand {
  command: CliCommand;
  flags: Flags;
  positionals: string[];
}

/** The command line parsed, or the usage error it makes (exit code 2): no command, an unknown one or option. */
export function parseCli(argv: string[]): CliResult | ParsedCommand {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    // An unknown option: the command's own usage when the words name one.
    const command = commandNamed(wordsOf(argv));
    return { exitCode: 2, output: `${(error as Error).message}\n${command ? commandHelp(command) : USAGE}` };
  }
  const { values: flags, positionals } = parsed;
  if (positionals.length === 0) return { exitCode: 2, output: USAGE };
  const command = commandNamed(positionals);
  if (!command) {
    const group = positionals.length === 1 ? groupHelp(positionals[0]) : undefined;
    return { exitCode: 2, output: `Unknown command "${positionals.join(' ')}".\n${group ?? USAGE}` };
  }
  return { command, flags, positionals };
}

/** What main.ts answers before it reads any configuration: help, or a command line that cannot run. */
export function answerWithoutConfiguration(argv: string[]): CliResult | undefined {
  const help = helpFor(argv);
  if (help) return help;
  const parsed = parseCli(argv);
  return 'exitCode' in parsed ? parsed : undefined;
}

/** Parses one command line and runs it; the result is printed by main.ts (tests call this). */
export async function runCli(argv: string[], ctx: () => Promise<CommandContext>): Promise<CliResult> {
  const help = helpFor(argv);
  if (help) return help;
  const parsed = parseCli(argv);
  if ('exitCode' in parsed) return parsed;
  const { command, flags, positionals } = parsed;
  const context = await ctx();
  const json = flags.json;
  try {
    const result = await command.run(context, { flags, argument: positionals[2] });
    if (json) return { exitCode: 0, output: JSON.stringify(result) };
    return { exitCode: 0, output: command.text?.(result, context.now?.() ?? new Date()) ?? fields(result) };
  } catch (error) {
    if (error instanceof CheckFailed)
      return { exitCode: 1, output: json ? JSON.stringify(error.report) : fields(error.report) };
    if (!(error instanceof NotFoundError || error instanceof UsageError)) throw error;
    const exitCode = error instanceof NotFoundError ? 1 : 2;
    return { exitCode, output: json ? JSON.stringify({ error: error.message }) : `Error: ${error.message}` };
  }
}

/** A result as `field: value` lines; a list of objects one JSON object a line. */
function fields(result: object): string {
  const lines = Object.entries(result).map(
    ([k, v]) =>
      `${k}: ${Array.isArray(v) ? (v.length && typeof v[0] === 'object' ? `\n${v.map((x) => `  - ${JSON.stringify(x)}`).join('\n')}` : v.join(', ')) : v}`,
  );
  if ('key' in result) lines.push('', 'Store the key now: it is shown only once.');
  return lines.join('\n');
}
