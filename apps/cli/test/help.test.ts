// Every command's own --help, from the command table (a command added to it is covered here).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/command-table.js';
import { OPTION_NAMES } from '../src/flags.js';
import { runCli, USAGE } from '../src/run.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const noDatabase = () => Promise.reject(new Error('help must not open the database'));
const cli = (line: string) => runCli(line.split(' ').filter(Boolean), noDatabase);

describe('each command has its own --help', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))('%s --help', async (name, command) => {
    const help = await cli(`${name} --help`);
    expect(help.exitCode).toBe(0);
    expect(help.output).not.toBe(USAGE);
    expect(help.output.startsWith(`Usage: pnpm cli ${`${name} ${command.synopsis}`.trimEnd()}`)).toBe(true);
    expect(help.output).toContain(`Example:\n  ${command.example}`);
    expect(help.output).toContain(command.summary[0]);
    // Its own: no other command's usage line in it.
    for (const other of COMMANDS.filter((c) => c !== command))
      expect(help.output, other.name).not.toContain(`pnpm cli ${other.name} `);
    expect(command.example.startsWith(`pnpm -s cli ${name}`), command.example).toBe(true);
    // Every option of the synopsis is explained, and every option explained is one the parser takes.
    const explained = Object.keys(command.options).map((option) => option.split(' ')[0]);
    for (const option of command.synopsis.match(/--[a-z-]+/g) ?? []) expect(explained, option).toContain(option);
    for (const option of explained.filter((o) => o.startsWith('--'))) expect(OPTION_NAMES, option).toContain(option);
    for (const [option, meaning] of Object.entries(command.options))
      expect(help.output).toMatch(new RegExp(`\\n  ${escape(option)} +${escape(meaning)}\\n`));
    // The same through `help <command>` and -h.
    expect(await cli(`help ${name}`)).toEqual(help);
    expect(await cli(`${name} -h`)).toEqual(help);
  });
});

describe('the general usage', () => {
  it('--help, -h and help print it and exit 0; it lists every command', async () => {
    for (const line of ['--help', '-h', 'help', '--json --help'])
      expect(await cli(line), line).toEqual({ exitCode: 0, output: USAGE });
    for (const command of COMMANDS) expect(USAGE).toContain(`\n  ${command.name}`);
  });

  it('no command, an unknown command or an unknown option: exit 2 with the usage (the command’s own when it is known)', async () => {
    expect(await cli('')).toEqual({ exitCode: 2, output: USAGE });
    expect(await cli('frobnicate')).toEqual({ exitCode: 2, output: `Unknown command "frobnicate".\n${USAGE}` });
    expect(await cli('help frobnicate')).toEqual({ exitCode: 2, output: `Unknown command "frobnicate".\n${USAGE}` });
    const option = await cli('key roll key_x --expires 24');
    expect(option.exitCode).toBe(2);
    expect(option.output).toMatch(/^Unknown option '--expires'/);
    expect(option.output.split('\n')[1]).toBe('Usage: pnpm cli key roll <keyId> --expires-in <hours> [--json]');
  });

  it("a group's --help lists its commands, and only those", async () => {
    const key = await cli('key --help');
    expect(key.exitCode).toBe(0);
    const listed = COMMANDS.filter((c) => key.output.includes(`\n  ${c.name} `) || key.output.endsWith(c.name));
    expect(listed.map((c) => c.name)).toEqual(['key create', 'key list', 'key roll', 'key revoke']);
    expect((await cli('accounts --help')).output).toContain('  account list');
  });
});

describe('pnpm -s cli as a process', () => {
  it('prints help and exits 0 without any configuration (a production deployment whose secrets are not set)', async () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, APP_ENV: 'production' };
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          `${root}node_modules/.bin/tsx`,
          ['apps/cli/src/main.ts', ...args],
          { cwd: root, env },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
        ),
      );
    const [usage, roll, unknown] = await Promise.all([run(['--help']), run(['key', 'roll', '--help']), run(['nope'])]);
    expect(usage).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: '' });
    expect(roll.code).toBe(0);
    expect(roll.stdout).toMatch(/^Usage: pnpm cli key roll <keyId> --expires-in <hours> \[--json\]\n/);
    expect(roll.stdout).toContain('pnpm -s cli key roll key_… --expires-in 24');
    // A usage error goes to stderr with exit code 2.
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([2, '', `Unknown command "nope".\n${USAGE}\n`]);
  }, 60_000);
});
