import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir` (relative to it), except those under its folder `skip`. */
export function filesOutside(dir: string, skip: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (relative(base, path) === skip) return [];
    return lstatSync(path).isDirectory() ? filesOutside(path, skip, base) : [relative(base, path)];
  });
}

/** The names of the packages in pnpm's store folder (each `<id>/node_modules/<name>` that is a directory, not a link). */
export function installedPackageNames(store: string): string[] {
  const names = new Set<string>();
  for (const id of readdirSync(store)) {
    const modules = join(store, id, 'node_modules');
    if (!existsSync(modules)) continue;
    for (const entry of readdirSync(modules)) {
      const candidates = entry.startsWith('@')
        ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`)
        : [entry];
      for (const name of candidates) if (lstatSync(join(modules, name)).isDirectory()) names.add(name);
    }
  }
  return [...names].sort();
}

/** `node <entry>` in `cwd` with only PATH and the given variables (no developer's environment). */
export function spawnNode(cwd: string, entry: string, env: Record<string, string>, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [entry, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  outputs.set(child, () => output);
  return child;
}

const outputs = new WeakMap<ChildProcess, () => string>();
export const outputOf = (child: ChildProcess) => outputs.get(child)!;

export function exitOf(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output: outputOf(child)() })));
}
