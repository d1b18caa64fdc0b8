// `pnpm build`: bundles each entry point with the workspace packages into dist/*.js;
// third-party packages stay external and are loaded from node_modules at run time.
import { build } from 'esbuild';

const entries = {
  'property-service': 'apps/property-service/src/main.ts',
  'agent-platform': 'apps/agent-platform/src/main.ts',
  start: 'scripts/start.ts',
  migrate: 'scripts/migrate.ts',
  cli: 'apps/cli/src/main.ts',
};

const externalThirdParty = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' || args.path.startsWith('@platform/') ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalThirdParty],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'info',
});
