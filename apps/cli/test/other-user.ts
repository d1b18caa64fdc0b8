// Runs a probe as another OS user (`su <user>`): the probe tries to open the embedded PostgreSQL and
// Redis. It is bundled with its dependencies into a directory everyone can read, and run with a
// node binary that user can execute, so the user needs no access to the checkout.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PROBE = fileURLToPath(new URL('./fixtures/other-user-probe.mjs', import.meta.url));

export interface ProbeInput {
  postgres: { port: number; hosts: string[]; credentials: { user: string; password: string }[] };
  /** `null`: no password at all. */
  redis: { port: number; passwords: (string | null)[] };
}

export interface ProbeResult {
  target: 'postgres' | 'redis';
  host?: string;
  user?: string;
  password?: string | null;
  /** `connected`, or `refused: <why>`. */
  outcome: string;
}

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** Runs a shell command as `user` (from `/`, which every user may enter). */
export function su(user: string, command: string): SpawnSyncReturns<string> {
  return spawnSync('su', [user, '-s', '/bin/sh', '-c', command], { encoding: 'utf8', timeout: 60_000, cwd: '/' });
}

/** Prepares the probe in `dir`; the returned function runs it as `user` (or, as a control, as this process's user). */
export async function prepareProbe(
  dir: string,
  user: string,
): Promise<(input: ProbeInput, options?: { asThisUser?: boolean }) => ProbeResult[]> {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const script = join(dir, 'probe.cjs');
  await build({
    entryPoints: [PROBE],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    nodePaths: [join(ROOT, 'packages/runtime/node_modules')],
    external: ['pg-native'],
    logLevel: 'silent',
  });
  chmodSync(script, 0o644);
  let node = process.execPath;
  if (su(user, `${quote(node)} -e 0`).status !== 0) {
    node = join(dir, 'node');
    copyFileSync(process.execPath, node);
    chmodSync(node, 0o755);
  }
  return (input, options = {}) => {
    const result = options.asThisUser
      ? spawnSync(node, [script, JSON.stringify(input)], { encoding: 'utf8', timeout: 60_000 })
      : su(user, `${quote(node)} ${quote(script)} ${quote(JSON.stringify(input))}`);
    if (result.status !== 0)
      throw new Error(`the probe failed (exit ${result.status}): ${result.stderr}${result.error ?? ''}`);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as ProbeResult[];
  };
}
