// An integrator's project in an empty folder outside the workspace: the client's tarball and its
// dependencies installed with npm, offline. The dependencies are packed from the workspace's own
// installed copies (the versions its tests ran with), so the install needs no registry and cannot
// pick up anything else: npm --offline fails if the client's declared ranges are not met by them.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder of package `name` as Node finds it from `from`, symlinks resolved (pnpm's store). */
function installedDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name} is not installed above ${from}`);
  }
}

/** `names` and their dependencies, transitively, each as found from the package that needs it. */
function withDependencies(names: readonly string[], from: string, found = new Map<string, string>()) {
  for (const name of names) {
    if (found.has(name)) continue;
    const dir = installedDir(name, from);
    found.set(name, dir);
    const { dependencies = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    withDependencies(Object.keys(dependencies), dir, found);
  }
  return found;
}

/**
 * Packs installed packages (and their dependencies) as registry-style tarballs into `destination`.
 * `--hard-dereference`: pnpm's store hard-links identical files (e.g. a package's index.d.ts and
 * index.d.mts), which tar would record as links that npm does not extract.
 */
export function packInstalled(names: readonly string[], from: string, destination: string): string[] {
  return [...withDependencies(names, from)].map(([name, dir]) => {
    const tarball = join(destination, `${name.replace('@', '').replace('/', '-')}.tgz`);
    execFileSync('tar', ['--hard-dereference', '-czf', tarball, '-C', dir, '--transform', 's,^\\.,package,', '.']);
    return tarball;
  });
}

/** Only what a fresh shell has: no pnpm or vitest variables leak into the integrator's commands. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

/** An empty npm project in `folder` with the tarballs installed, offline, scripts not run. */
export function npmInstall(folder: string, tarballs: readonly string[]): void {
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs], {
    cwd: folder,
    env: cleanEnv(),
    stdio: 'pipe',
  });
}

/** The README's client example, as an integrator copies it. */
export function readmeExample(readme: string): string {
  const block = /<!-- client-example begin -->\n```ts\n([\s\S]*?)```\n<!-- client-example end -->/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no client example between its markers');
  return block;
}
