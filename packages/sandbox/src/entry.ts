import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bundles = new Map<string, Promise<string>>();
let directory: Promise<string> | undefined;
let compiled = 0;

/** This process's own directory of compiled entries (0700, removed when the process exits): nobody else can change what its children run. */
function bundleDirectory(): Promise<string> {
  directory ??= mkdtemp(join(tmpdir(), 'sandbox-entry-')).then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  return directory;
}

/**
 * The file a child runs for `entry`: JavaScript as it is (a built bundle); TypeScript (from source,
 * in development and tests) compiled once per process with esbuild into a module of the
 * workspace's own code only. Every third-party package stays outside it and is loaded by Node from
 * where it is installed, by its absolute path, as in production. (A loader like tsx would instead
 * transform the decoders' large modules in every child: pdf.js alone grew to 450 MB that way.)
 */
export function runnableEntry(entry: string): Promise<string> {
  if (!/\.[cm]?ts$/.test(entry)) return Promise.resolve(entry);
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = bundleWorkspaceCode(entry);
    bundle.catch(() => bundles.delete(entry));
    bundles.set(entry, bundle);
  }
  return bundle;
}

async function bundleWorkspaceCode(entry: string): Promise<string> {
  const name = `${++compiled}-entry.mjs`;
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    plugins: [
      {
        name: 'third-party-outside',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === 'resolving' || args.path.startsWith('node:')) return undefined;
            const resolved = await build.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              importer: args.importer,
              pluginData: 'resolving',
            });
            if (resolved.errors.length > 0 || !resolved.path.includes('/node_modules/')) return resolved;
            return { path: resolved.path, external: true };
          });
        },
      },
    ],
  });
  const file = join(await bundleDirectory(), name);
  await writeFile(file, result.outputFiles[0].contents, { flag: 'wx', mode: 0o600 });
  return file;
}
