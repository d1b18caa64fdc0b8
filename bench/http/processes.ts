// The servers of the HTTP benchmark as child processes: the floor servers and the project (as
// `pnpm start` runs it, or the services without the worker). Output goes to a log file, as a
// deployment's would; a process that exits early fails the run with the log's tail.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@platform/testkit';
import { stopProcess } from '../support.js';
import type { Resource } from './load.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Running {
  /** `floor`, or the project's variant. */
  name: string;
  /** Base URL per resource. */
  urls: Record<Resource, string>;
  /** The project's Prometheus metrics (the floors have none). */
  metricsUrl?: string;
  /** CPU time (user + system, all threads) the process serving the resource has used so far, in µs. */
  cpuMicros(resource: Resource): number;
  stop(): Promise<void>;
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, counted after the parenthesised command name). */
function cpuMicrosOf(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

export interface Environment {
  databaseUrl: string;
  redisUrl: string;
  pepper: string;
  /** Every start of the project on the database uses the same (its fingerprint is recorded at the first). */
  webhookSecretKey: string;
  /** Where the logs and the project's DATA_DIR go. */
  dir: string;
  /** Write CPU profiles of the servers into this folder (`node --cpu-prof`), one subfolder per server. */
  profileDir?: string;
  /** The database through PgBouncer in transaction mode (the `pgbouncer` variant). */
  pooledUrl?: string;
}

/** node's flags for a CPU profile of one server into its own subfolder of `Environment.profileDir`. */
const profiled = (env: Environment, server: string) =>
  env.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(env.profileDir, server)}`] : [];

/** `node --import tsx <script>`, as the tsx command runs it (node's flags cannot go through tsx's NODE_OPTIONS). */
function started(args: string[], env: Record<string, string>, log: string, nodeFlags: string[] = []): ChildProcess {
  const out = openSync(log, 'a');
  return spawn(process.execPath, [...nodeFlags, '--import', 'tsx', ...args], {
    cwd: ROOT,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
  });
}

async function untilAnswers(url: string, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ok = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stopProcess(child);
  throw new Error(`${url} did not answer; the end of ${log}:\n${readFileSync(log, 'utf8').slice(-3_000)}`);
}

/** The plain floor caches and prepares nothing; the strong one caches keys and names its statements, as the project does. */
export type Floor = 'plain' | 'strong';

/** The two floor servers (bench/http/floor-server.ts), one per resource. */
export async function startFloors(env: Environment, floor: Floor = 'plain'): Promise<Running> {
  const children: ChildProcess[] = [];
  const byResource = {} as Record<Resource, ChildProcess>;
  const urls = {} as Record<Resource, string>;
  for (const resource of ['properties', 'agents'] as const) {
    const port = await freePort();
    const log = join(env.dir, `floor-${floor}-${resource}.log`);
    const child = started(
      ['bench/http/floor-server.ts', resource, String(port), ...(floor === 'strong' ? ['strong'] : [])],
      { DATABASE_URL: env.databaseUrl, API_KEY_PEPPER: env.pepper },
      log,
      profiled(env, `floor-${floor}-${resource}`),
    );
    children.push(child);
    byResource[resource] = child;
    urls[resource] = `http://127.0.0.1:${port}`;
    await untilAnswers(`${urls[resource]}/`, child, log);
  }
  return {
    name: floor === 'strong' ? 'strong floor' : 'floor',
    urls,
    cpuMicros: (resource) => cpuMicrosOf(byResource[resource]),
    stop: async () => void (await Promise.all(children.map(stopProcess))),
  };
}

/**
 * `start` and `services` connect straight to PostgreSQL with named prepared statements;
 * `unprepared` is `pnpm start` with DATABASE_PREPARED_STATEMENTS=false, `pgbouncer` the same
 * through PgBouncer in transaction mode (`Environment.pooledUrl`), as issue 33 deploys it.
 */
export type Variant = 'start' | 'services' | 'unprepared' | 'pgbouncer';

const SCRIPTS: Record<Variant, string> = {
  start: 'scripts/start.ts',
  services: 'bench/http/services-only.ts',
  unprepared: 'scripts/start.ts',
  pgbouncer: 'scripts/start.ts',
};

function connectionEnv(variant: Variant, env: Environment): Record<string, string> {
  if (variant === 'unprepared') return { DATABASE_URL: env.databaseUrl, DATABASE_PREPARED_STATEMENTS: 'false' };
  if (variant !== 'pgbouncer') return { DATABASE_URL: env.databaseUrl };
  if (!env.pooledUrl) throw new Error('the pgbouncer variant needs Environment.pooledUrl');
  return { DATABASE_URL: env.pooledUrl, DIRECT_DATABASE_URL: env.databaseUrl, DATABASE_POOLING: 'transaction' };
}

/** The project: `start` is `pnpm start` (both services and the worker), `services` the two services alone. */
export async function startProject(variant: Variant, env: Environment): Promise<Running> {
  const ports = { property: await freePort(), agents: await freePort(), metrics: await freePort() };
  const log = join(env.dir, `project-${variant}.log`);
  const child = started(
    [SCRIPTS[variant]],
    {
      ...connectionEnv(variant, env),
      REDIS_URL: env.redisUrl,
      API_KEY_PEPPER: env.pepper,
      WEBHOOK_SECRET_KEY: env.webhookSecretKey,
      PROPERTY_PORT: String(ports.property),
      AGENT_PLATFORM_PORT: String(ports.agents),
      METRICS_PORT: String(ports.metrics),
      DATA_DIR: join(env.dir, `data-${variant}`),
    },
    log,
    profiled(env, `project-${variant}`),
  );
  const urls = { properties: `http://127.0.0.1:${ports.property}`, agents: `http://127.0.0.1:${ports.agents}` };
  await untilAnswers(`${urls.properties}/health/ready`, child, log);
  await untilAnswers(`${urls.agents}/health/ready`, child, log);
  return {
    name: variant,
    urls,
    metricsUrl: `http://127.0.0.1:${ports.metrics}`,
    cpuMicros: () => cpuMicrosOf(child),
    stop: () => stopProcess(child),
  };
}
