import { COMMANDS, type CliCommand } from './command-table.js';

const SUMMARY_COLUMN = 27;
const indent = (line: string) => `${' '.repeat(SUMMARY_COLUMN)}${line}`;

const EXIT_CODES =
  'Exit codes: 0 done; 1 a record it names does not exist, or a check found problems; 2 a mistake on the command line.';

export const USAGE = [
  'Usage: pnpm cli <command> [--json]',
  '       pnpm cli <command> --help   (or pnpm cli help <command>): its arguments, options and an example',
  ...COMMANDS.flatMap((c) => [`  ${`${c.name} ${c.synopsis}`.trimEnd()}`, ...c.summary.map(indent)]),
  '("accounts" works like "account".)',
].join('\n');

/** Its arguments and options, a line each with what it means, aligned; `--json` last. */
function optionLines(command: CliCommand): string[] {
  const entries = [...Object.entries(command.options), ['--json', 'print exactly one JSON object']];
  const width = Math.max(...entries.map(([option]) => option.length));
  return ['Arguments and options:', ...entries.map(([option, meaning]) => `  ${option.padEnd(width)}  ${meaning}`), ''];
}

/** A command's own `--help`: its usage line, what it does, its arguments and options, an example. */
export function commandHelp(command: CliCommand): string {
  return [
    `Usage: pnpm cli ${`${command.name} ${command.synopsis}`.trimEnd()} [--json]`,
    '',
    `  ${command.summary.join(' ')}.`,
    '',
    ...optionLines(command),
    'Example:',
    `  ${command.example}`,
    '',
    'With --json use pnpm -s, so that pnpm prints nothing before the object.',
    EXIT_CODES,
  ].join('\n');
}

/** The help of a group (`pnpm cli key --help`): its commands as the usage lists them. */
export function groupHelp(group: string): string | undefined {
  const commands = COMMANDS.filter((c) => c.name.split(' ')[0] === group);
  if (commands.length === 0) return undefined;
  return [
    `Usage: pnpm cli ${group} <command> [--json]   (pnpm cli ${group} <command> --help for one of them)`,
    ...commands.flatMap((c) => [`  ${`${c.name} ${c.synopsis}`.trimEnd()}`, ...c.summary.map(indent)]),
  ].join('\n');
}

/** The command the words name (`accounts list` works like `account list`). */
export function commandNamed(words: readonly (string | undefined)[]): CliCommand | undefined {
  const [group, action] = words;
  const name = `${group === 'accounts' ? 'account' : group} ${action ?? ''}`;
  return COMMANDS.find((c) => c.name === name);
}
