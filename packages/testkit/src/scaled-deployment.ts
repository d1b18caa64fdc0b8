import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startRedisServer, startS3Server } from './backing-servers.js';
import { answers200, startChildServer, type ChildServer } from './child-server.js';
import { TEST_PEPPER } from './fixtures.js';
import { startNginx, type Nginx } from './nginx.js';
import { freePort } from './ports.js';
import { makeTestCertificates } from './test-certificates.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The bundles of scripts/build.mjs (dist/<name>.js) each role runs, as its container does. */
const BUNDLES = { property: 'property-service', agents: 'agent-platform', worker: 'worker' } as const;
type Role = keyof typeof BUNDLES;

/** scripts/build.mjs's bundles of the three roles (and the sandbox's entry beside them) into a folder of their own. */
async function buildBundles(): Promise<string> {
  // Inside the repository, so that the bundles' external packages resolve as in dist/.
  mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
  const outdir = mkdtempSync(join(ROOT, 'node_modules/.cache/scaled-deployment-'));
  const { buildBundles: build } = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
    buildBundles: (options: object) => Promise<unknown>;
  };
  await build({ outdir, names: [...Object.values(BUNDLES), 'sandbox'], sourcemap: false, logLevel: 'error' });
  return outdir;
}

/** One process of the deployment: a service instance (its API port) or a worker (its metrics port). */
export interface Instance {
  name: string;
  role: Role;
  port: number;
  process: ChildServer;
}

export interface ScaledDeployment {
  /** The proxy's HTTPS base URLs of the two services. */
  urls: { property: string; agents: string };
  redisUrl: string;
  /** The test CA (PEM) that signed the proxy's certificate: what a client must trust. */
  ca: string;
  proxy: Nginx;
  instances: Instance[];
  stop(): Promise<void>;
}

/**
 * The services as a production deployment runs them, on one machine: `replicas` processes of each
 * service and `replicas` workers (the bundles of scripts/build.mjs, as the containers run them) on one
 * database, one Redis and one S3 store, all with the same secrets and TRUST_PROXY=true, behind
 * nginx terminating TLS with a certificate of a test CA. PUBLIC_BASE_URLs are the proxy's.
 */
export async function startScaledDeployment(options: {
  databaseUrl: string;
  env?: Record<string, string>;
  replicas?: number;
}): Promise<ScaledDeployment> {
  const replicas = options.replicas ?? 2;
  const dir = mkdtempSync(join(tmpdir(), 'scaled-deployment-'));
  const started: { stop(): Promise<unknown> }[] = [];
  let bundles: string | undefined;
  const stopAll = async () => {
    for (const server of started.reverse()) await server.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    if (bundles) rmSync(bundles, { recursive: true, force: true });
  };
  try {
    bundles = await buildBundles();
    const certificates = makeTestCertificates(dir);
    const ports = async () => Promise.all(Array.from({ length: replicas }, () => freePort()));
    const sites = [
      { name: 'property', port: await freePort(), backends: await ports() },
      { name: 'agents', port: await freePort(), backends: await ports() },
    ];
    const [redis, s3] = await Promise.all([startRedisServer(), startS3Server(join(dir, 's3'))]);
    started.push(redis.server, s3.server);
    mkdirSync(join(dir, 'nginx'));
    const proxy = await startNginx({ dir: join(dir, 'nginx'), certificates, sites });
    started.push(proxy);
    const urls = { property: `https://127.0.0.1:${sites[0]!.port}`, agents: `https://127.0.0.1:${sites[1]!.port}` };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: redis.url,
      API_KEY_PEPPER: TEST_PEPPER,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'true',
      PROPERTY_PUBLIC_BASE_URL: urls.property,
      AGENT_PLATFORM_PUBLIC_BASE_URL: urls.agents,
      ...s3.env,
      HOST: '127.0.0.1',
      SANDBOX_PROCESSES: '1',
      LOG_LEVEL: 'warn',
      ...options.env,
    };
    const plan: { role: Role; port: number }[] = [
      ...sites[0]!.backends.map((port) => ({ role: 'property' as const, port })),
      ...sites[1]!.backends.map((port) => ({ role: 'agents' as const, port })),
      ...(await ports()).map((port) => ({ role: 'worker' as const, port })),
    ];
    const instances = await Promise.all(
      plan.map(async ({ role, port }, i): Promise<Instance> => {
        const name = `${role}-${plan.slice(0, i).filter((p) => p.role === role).length + 1}`;
        const own = {
          DATA_DIR: join(dir, name),
          // Services are probed on their API port; a worker has only its metrics port.
          METRICS_PORT: role === 'worker' ? String(port) : '0',
          ...(role === 'property' ? { PROPERTY_PORT: String(port) } : {}),
          ...(role === 'agents' ? { AGENT_PLATFORM_PORT: String(port) } : {}),
        };
        const child = await startChildServer(process.execPath, [join(bundles!, `${BUNDLES[role]}.js`)], {
          cwd: ROOT,
          env: { ...env, ...own },
          ready: () => answers200(`http://127.0.0.1:${port}/health/live`),
          timeoutMs: 120_000,
        });
        started.push(child);
        return { name, role, port, process: child };
      }),
    );
    return { urls, redisUrl: redis.url, ca: certificates.ca, proxy, instances, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
