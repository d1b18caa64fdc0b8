// The installable package: compiles src/ to dist/ (JavaScript and declarations) and packs it with
// `pnpm pack`, which applies `publishConfig` (exports of dist/ instead of src/) and replaces
// `workspace:` versions. `pnpm build` at the root calls this; so does the tarball's test.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The client's package folder. */
export const CLIENT_DIR = fileURLToPath(new URL('..', import.meta.url));

/** `platform-client-<version>.tgz`: the file name `pnpm pack` gives the client's tarball. */
export function tarballName() {
  const { name, version } = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8'));
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/** Builds the client afresh and writes its tarball into `destination`; returns the tarball's path. */
export function packClient({ destination = join(CLIENT_DIR, '../../dist'), quiet = false } = {}) {
  const out = resolve(destination);
  mkdirSync(out, { recursive: true });
  rmSync(join(CLIENT_DIR, 'dist'), { recursive: true, force: true }); // nothing left over from an older build
  const tsc = createRequire(join(CLIENT_DIR, 'package.json')).resolve('typescript/bin/tsc');
  run(process.execPath, [tsc, '-p', 'tsconfig.build.json']);
  run('pnpm', ['pack', '--pack-destination', out]);
  const tarball = join(out, tarballName());
  if (!existsSync(tarball)) throw new Error(`pnpm pack did not write ${tarball}`);
  if (!quiet) console.log(`client package: ${tarball}`);
  return tarball;
}

/** Runs a command in the client's folder; its output is shown only when it fails. */
function run(command, args) {
  try {
    execFileSync(command, args, { cwd: CLIENT_DIR, stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}
