import { lookup } from 'node:dns/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { embeddedServerOf } from '@platform/db';
import { existingSandboxSecret, type Config } from './config.js';
import { listening, pingLocalRedis } from './local-port.js';
import { portProblem } from './startup-errors.js';

/** A port this process will listen on, and the variable that sets it. */
export interface PlannedPort {
  port: number;
  variable: string;
}

/**
 * Every port a start would use, before anything is started: the services' and METRICS_PORT on
 * HOST, and the embedded PostgreSQL's and local Redis's on 127.0.0.1 when they are used. One
 * line per problem (all of them), in the words of `portProblem`; empty when all are free.
 *
 * The services' ports are probed by binding them on HOST (as the real listen will: a taken port,
 * a port this user may not use and a HOST that is not this machine's all show), then released at
 * once. The embedded servers' ports are only connected to: one of this DATA_DIR may already run
 * there (reused, as `pnpm cli` does), or be starting in another process, which a bind could break.
 */
export async function portProblems(config: Config, servicePorts: readonly PlannedPort[]): Promise<string[]> {
  const listens = [...servicePorts, ...(config.metricsPort > 0 ? [metricsPort(config)] : [])];
  const embedded = embeddedPorts(config);
  const all = [...listens, ...embedded];
  const shared = new Set(sharedPortNumbers(all));
  const problems = [...shared].map((port) => sharedPort(port, all));
  for (const planned of listens) {
    if (shared.has(planned.port)) continue;
    const problem = await bindProblem(config.host, planned);
    if (problem && !problems.includes(problem)) problems.push(problem);
  }
  for (const planned of embedded) {
    if (shared.has(planned.port) || !(await listening(planned.port))) continue;
    const ours =
      planned.variable === 'EMBEDDED_PG_PORT'
        ? embeddedServerOf(join(config.dataDir, 'postgres'))?.port === planned.port
        : await isLocalRedis(planned.port, existingSandboxSecret(config.dataDir, 'embedded_redis_password'));
    if (!ours) problems.push(foreignServer(planned, config.dataDir));
  }
  return problems;
}

/** `portProblems`, printed (one line each) with exit 1 when there is any. */
export async function checkPortsOrExit(config: Config, servicePorts: readonly PlannedPort[]): Promise<void> {
  const problems = await portProblems(config, servicePorts);
  if (problems.length === 0) return;
  for (const problem of problems) console.error(problem);
  process.exit(1);
}

const metricsPort = (config: Config): PlannedPort => ({ port: config.metricsPort, variable: 'METRICS_PORT' });

function embeddedPorts(config: Config): PlannedPort[] {
  return [
    ...(config.databaseUrl ? [] : [{ port: config.embeddedPostgresPort, variable: 'EMBEDDED_PG_PORT' }]),
    ...(config.redisUrl || config.redisSentinel ? [] : [{ port: config.redisPort, variable: 'REDIS_PORT' }]),
  ];
}

function sharedPortNumbers(ports: readonly PlannedPort[]): number[] {
  const counts = new Map<number, number>();
  for (const { port } of ports) counts.set(port, (counts.get(port) ?? 0) + 1);
  return [...counts].filter(([, count]) => count > 1).map(([port]) => port);
}

/** Two variables set to the same port: one line naming them all. */
function sharedPort(port: number, ports: readonly PlannedPort[]): string {
  const names = ports.filter((p) => p.port === port).map((p) => p.variable);
  return `Port ${port} is set for ${names.slice(0, -1).join(', ')} and ${names.at(-1)}: give each its own port (change all but one of them).`;
}

/**
 * Fastify listens on every address of `localhost` (IPv4 and IPv6), on the one given otherwise:
 * the probe binds the same ones, so a port taken on any of them shows here.
 */
async function bindProblem(host: string, planned: PlannedPort): Promise<string | undefined> {
  const addresses =
    host === 'localhost'
      ? (await lookup(host, { all: true }).catch(() => [{ address: host }])).map((a) => a.address)
      : [host];
  for (const address of addresses) {
    const problem = await bindProblemAt(address, address === host ? host : `${host} (${address})`, planned);
    if (problem) return problem;
  }
  return undefined;
}

function bindProblemAt(host: string, label: string, planned: PlannedPort): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => {
      const problem = portProblem(error, { host: label, port: planned.port }, planned.variable);
      if (problem) resolve(problem);
      else reject(error);
    });
    // Released before anything else starts, so the real listen finds it free again.
    probe.listen({ host, port: planned.port }, () => probe.close(() => resolve(undefined)));
  });
}

/** The local Redis of this DATA_DIR: it refuses a client without its password and answers one with it. */
async function isLocalRedis(port: number, password: string | undefined): Promise<boolean> {
  if (!password) return false; // never started for this DATA_DIR
  return (await pingLocalRedis(port)) !== 'PONG' && (await pingLocalRedis(port, password)) === 'PONG';
}

function foreignServer({ port, variable }: PlannedPort, dataDir: string): string {
  const what = variable === 'EMBEDDED_PG_PORT' ? 'the embedded database' : 'the local Redis';
  return `Port ${port} (${variable}) is in use on 127.0.0.1, but not by ${what} of ${dataDir}: stop what listens there, or set ${variable} to a free port.`;
}
