import { Redis, type RedisOptions } from 'ioredis';
import type { RedisSentinelConfig } from './redis-sentinel-config.js';

/** ioredis's (and so BullMQ's) options for the primary behind Sentinel: it asks the sentinels where the primary is on every (re)connect. */
export interface SentinelConnection {
  sentinels: { host: string; port: number }[];
  name: string;
  password?: string;
  sentinelPassword?: string;
  maxRetriesPerRequest: null;
}

export function sentinelConnection(config: RedisSentinelConfig): SentinelConnection {
  return {
    sentinels: config.sentinels.map(({ host, port }) => ({ host, port })),
    name: config.masterName,
    ...(config.password ? { password: config.password } : {}),
    ...(config.sentinelPassword ? { sentinelPassword: config.sentinelPassword } : {}),
    maxRetriesPerRequest: null,
  };
}

/** The primary behind the sentinels, in words for log lines (no password). */
export function sentinelWhere(connection: Pick<SentinelConnection, 'sentinels' | 'name'>): string {
  return `the primary "${connection.name}" of the sentinels ${connection.sentinels.map(addressOf).join(', ')}`;
}

const addressOf = ({ host, port }: { host: string; port: number }) =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/** Runs `use` on a client of its own that never retries; resolves to the answer or to the error that ended it. */
async function probe<T>(options: RedisOptions, use: (client: Redis) => Promise<T>): Promise<T | Error> {
  const client = new Redis({
    ...options,
    lazyConnect: true,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
    connectTimeout: 5_000,
    commandTimeout: 5_000,
  });
  let lastError: Error | undefined; // connect() only says "Connection is closed."; the cause came as an event
  client.on('error', (error: Error) => (lastError = error));
  try {
    await client.connect();
    return await use(client);
  } catch (error) {
    return lastError ?? (error as Error);
  } finally {
    client.disconnect();
  }
}

/** Why a server could not be used, in a few words (never a password). */
function reason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'nothing listens there';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
  if (/WRONGPASS|NOAUTH|invalid password|invalid username|AUTH.*without any password/i.test(error.message))
    return `refused the password (${error.message.split('\n')[0]})`;
  return error.message.split('\n')[0] ?? 'no answer';
}

const refusedPassword = (error: Error) => reason(error).startsWith('refused the password');

export interface SentinelProblem {
  /** Fatal: the services cannot start with this. */
  fatal: boolean;
  message: string;
}

/**
 * What stands in the way of using Redis through these sentinels, fatal or a warning: no sentinel
 * answers, none knows the primary's name, a password is refused, the primary or a replica (a
 * failover makes it the primary) may evict keys, a sentinel is down, there is no replica.
 */
export async function sentinelProblems(config: RedisSentinelConfig): Promise<SentinelProblem[]> {
  const problems: SentinelProblem[] = [];
  const sentinelOptions = (address: { host: string; port: number }): RedisOptions => ({
    ...address,
    password: config.sentinelPassword,
  });
  const answers = await Promise.all(
    config.sentinels.map((address) =>
      probe(sentinelOptions(address), (client) =>
        client.call('SENTINEL', 'get-master-addr-by-name', config.masterName),
      ),
    ),
  );
  const failed = answers.flatMap((answer, i) =>
    answer instanceof Error ? [`${addressOf(config.sentinels[i]!)}: ${reason(answer)}`] : [],
  );
  if (failed.length === answers.length) {
    const password = answers.some((answer) => answer instanceof Error && refusedPassword(answer))
      ? ' (a refused password: fix REDIS_SENTINEL_PASSWORD)'
      : '';
    return [
      {
        fatal: true,
        message: `None of the sentinels of REDIS_SENTINELS answered (${failed.join('; ')})${password}: start them, or fix REDIS_SENTINELS.`,
      },
    ];
  }
  const knowing = answers.findIndex((answer) => Array.isArray(answer));
  if (knowing < 0)
    return [
      {
        fatal: true,
        message: `The sentinels of REDIS_SENTINELS know no primary named "${config.masterName}": fix REDIS_SENTINEL_MASTER (SENTINEL MASTERS on a sentinel lists the names it monitors).`,
      },
    ];
  if (failed.length > 0)
    problems.push({
      fatal: false,
      message: `${failed.length} of ${answers.length} sentinels did not answer (${failed.join('; ')}): a failover needs a majority of them.`,
    });

  const [host, port] = answers[knowing] as [string, string];
  const primary = `${host}:${port}`;
  const policy = await probe({ ...sentinelConnection(config), role: 'master' }, (client) =>
    client.config('GET', 'maxmemory-policy'),
  );
  if (policy instanceof Error) {
    if (!/ERR.*CONFIG|unknown command/i.test(policy.message)) {
      const fix = refusedPassword(policy) ? 'fix REDIS_PASSWORD' : 'check that it runs and is reachable from here';
      return [
        ...problems,
        {
          fatal: true,
          message: `Could not use ${sentinelWhere(sentinelConnection(config))}, now at ${primary} (${reason(policy)}): ${fix}.`,
        },
      ];
    }
    problems.push({ fatal: false, message: UNREADABLE_POLICY });
  } else problems.push(...evicting(`The Redis primary "${config.masterName}" (${primary})`, policy));

  // A failover makes a replica the primary: it must not evict either.
  const replicas = await probe(sentinelOptions(config.sentinels[knowing]!), (client) =>
    client.call('SENTINEL', 'replicas', config.masterName),
  );
  const up = (Array.isArray(replicas) ? (replicas as string[][]) : [])
    .map((fields) => Object.fromEntries(fields.flatMap((_, i) => (i % 2 === 0 ? [[fields[i], fields[i + 1]]] : []))))
    .filter((replica) => !/s_down|o_down|disconnected/.test(replica.flags ?? ''));
  if (up.length === 0)
    problems.push({
      fatal: false,
      message: `The sentinels know no replica of "${config.masterName}" that is up: a failover has nothing to promote.`,
    });
  for (const replica of up) {
    const where = `${replica.ip}:${replica.port}`;
    const answer = await probe({ host: replica.ip, port: Number(replica.port), password: config.password }, (client) =>
      client.config('GET', 'maxmemory-policy'),
    );
    if (answer instanceof Error)
      problems.push({ fatal: false, message: `Could not check the Redis replica ${where} (${reason(answer)}).` });
    else problems.push(...evicting(`The Redis replica ${where} of "${config.masterName}"`, answer));
  }
  return problems;
}

function evicting(what: string, answer: unknown): SentinelProblem[] {
  const policy = Array.isArray(answer) ? (answer[1] as string | undefined) : undefined;
  if (policy === undefined || policy === 'noeviction') return [];
  return [{ fatal: true, message: evictionProblem(what, policy) }];
}

/** Why a Redis whose maxmemory-policy is not noeviction is refused (BullMQ's jobs and retries live there for hours). */
export function evictionProblem(what: string, policy: string): string {
  return `${what} has maxmemory-policy ${policy}, which can silently drop queued jobs and webhook retries: set it to noeviction (CONFIG SET maxmemory-policy noeviction, and maxmemory-policy noeviction in its redis.conf).`;
}

/** A Redis that refuses CONFIG (some managed ones) cannot be checked. */
export const UNREADABLE_POLICY =
  'WARNING: could not read the Redis maxmemory-policy (CONFIG GET refused); make sure it is noeviction.';
