import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bundles = new Map<string, Promise<string>>();

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
            const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
            if (resolved.errors.length > 0 || !resolved.path.includes('/node_modules/')) return resolved;
            return { path: resolved.path, external: true };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0].contents;
  const dir = join(tmpdir(), 'platform-sandbox');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  const partial = `${file}.${process.pid}.part`;
  await writeFile(partial, code);
  await rename(partial, file); // several processes may write the same bundle at once
  return file;
}
