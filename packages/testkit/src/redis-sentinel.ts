import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './ports.js';
import { until } from './webhook-receiver.js';

export interface SentinelRedis {
  masterName: string;
  /** `host:port,…` as REDIS_SENTINELS takes it. */
  sentinelList: string;
  /** REDIS_SENTINELS, REDIS_SENTINEL_MASTER, REDIS_PASSWORD, REDIS_SENTINEL_PASSWORD (and REDIS_URL empty) for the services. */
  env: Record<string, string>;
  /** ioredis's and BullMQ's options for the primary through the sentinels, as the services get them. */
  connection: {
    sentinels: { host: string; port: number }[];
    name: string;
    password: string;
    sentinelPassword: string;
    maxRetriesPerRequest: null;
  };
  /** A client of the primary as it is now (the caller disconnects it). */
  primary(): Promise<Redis>;
  /** SIGKILLs the primary (no shutdown, no last write to its replica); resolves once it is gone. */
  killPrimary(): Promise<{ port: number; at: number }>;
  /** Resolves once a majority of the sentinels name another primary that answers as one, with its port. */
  waitForPromotion(oldPort: number, timeoutMs?: number): Promise<{ port: number; at: number }>;
  /**
   * The primary's replicas stop taking its writes (their link cut, their password for it wrong), as
   * a replica lagging behind or cut off by the network would: what the primary takes from now on
   * is lost when it dies.
   */
  cutReplication(): Promise<void>;
  /** Starts a killed node again on its port with its AOF; resolves once the sentinels have made it a replica in sync. */
  restartKilled(port: number): Promise<void>;
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const QUORUM = 2;

/**
 * A primary redis-server, one replica (`replicaof`) and three redis-sentinel processes (quorum 2,
 * down after 1 s, failover timeout 5 s) on free loopback ports under a temp dir; AOF on and
 * noeviction everywhere, a password on the data nodes and another on the sentinels. The data
 * nodes get their configuration on stdin; the sentinels need theirs in a file (they rewrite it),
 * in the temp dir (0700). Resolves once the replica is in sync and every sentinel knows the
 * replica and the other sentinels, so that a failover can happen.
 */
export async function startSentinelRedis(masterName = 'platform'): Promise<SentinelRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-sentinel-'));
  const password = randomBytes(16).toString('hex');
  const sentinelPassword = randomBytes(16).toString('hex');
  const children = new Map<number, ChildProcess>();
  const stopAll = () => {
    for (const child of children.values())
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stopAll);

  const names = new Map<number, string>();
  const launch = async (port: number, name: string, replicaOf?: number) => {
    const conf = [
      `port ${port}`,
      `bind ${HOST}`,
      `dir ${dir}`,
      `appendfilename ${name}.aof`,
      `appenddirname ${name}-aof`,
      `dbfilename ${name}.rdb`,
      'appendonly yes',
      'appendfsync everysec',
      'save ""',
      'maxmemory-policy noeviction',
      `requirepass ${password}`,
      `masterauth ${password}`,
      ...(replicaOf ? [`replicaof ${HOST} ${replicaOf}`] : []),
    ];
    const child = spawn('redis-server', ['-'], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin!.end(`${conf.join('\n')}\n`);
    children.set(port, child);
    names.set(port, name);
    await reachable(port, password);
    return port;
  };
  const primary = await launch(await freePort(), 'primary');
  const replica = await launch(await freePort(), 'replica', primary);

  const sentinelPorts = await Promise.all([0, 1, 2].map(() => freePort()));
  for (const [i, port] of sentinelPorts.entries()) {
    const file = join(dir, `sentinel-${i}.conf`);
    writeFileSync(
      file,
      [
        `port ${port}`,
        `bind ${HOST}`,
        `dir ${dir}`,
        `requirepass ${sentinelPassword}`,
        `sentinel sentinel-pass ${sentinelPassword}`,
        `sentinel monitor ${masterName} ${HOST} ${primary} ${QUORUM}`,
        `sentinel auth-pass ${masterName} ${password}`,
        `sentinel down-after-milliseconds ${masterName} 1000`,
        `sentinel failover-timeout ${masterName} 5000`,
        `sentinel parallel-syncs ${masterName} 1`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    children.set(port, spawn('redis-sentinel', [file], { stdio: 'ignore' }));
  }
  const sentinel = (port: number) => client(port, sentinelPassword);
  const ask = async <T>(port: number, ...args: string[]): Promise<T | undefined> => {
    const connection = sentinel(port);
    try {
      return (await connection.call('SENTINEL', ...args)) as T;
    } catch {
      return undefined;
    } finally {
      connection.disconnect();
    }
  };
  /** Every sentinel knows the other sentinels and the replica on `port` as up, and the replica is in sync. */
  const replicaReady = async (port: number) => {
    for (const sentinelPort of sentinelPorts) {
      const replicas = await ask<string[][]>(sentinelPort, 'replicas', masterName);
      const others = await ask<unknown[]>(sentinelPort, 'sentinels', masterName);
      const known = replicas?.find((fields) => fields[fields.indexOf('port') + 1] === String(port));
      const flags = known?.[known.indexOf('flags') + 1] ?? '';
      if (!known || /down|disconnected/.test(flags) || others?.length !== sentinelPorts.length - 1) return false;
    }
    const link = await withClient(port, password, (c) => c.info('replication'));
    return /role:slave/.test(link ?? '') && /master_link_status:up/.test(link ?? '');
  };
  await until(() => replicaReady(replica), 30_000);

  const primaryPortNow = async (): Promise<number | undefined> => {
    const named = await Promise.all(
      sentinelPorts.map((port) => ask<[string, string]>(port, 'get-master-addr-by-name', masterName)),
    );
    const votes = new Map<number, number>();
    for (const answer of named) if (answer) votes.set(Number(answer[1]), (votes.get(Number(answer[1])) ?? 0) + 1);
    return [...votes].find(([, count]) => count >= QUORUM)?.[0];
  };

  const sentinelList = sentinelPorts.map((port) => `${HOST}:${port}`).join(',');
  return {
    masterName,
    sentinelList,
    env: {
      REDIS_URL: '',
      REDIS_SENTINELS: sentinelList,
      REDIS_SENTINEL_MASTER: masterName,
      REDIS_PASSWORD: password,
      REDIS_SENTINEL_PASSWORD: sentinelPassword,
    },
    connection: {
      sentinels: sentinelPorts.map((port) => ({ host: HOST, port })),
      name: masterName,
      password,
      sentinelPassword,
      maxRetriesPerRequest: null,
    },
    primary: async () => {
      const port = await primaryPortNow();
      if (!port) throw new Error('the sentinels name no primary');
      return client(port, password);
    },
    killPrimary: async () => {
      const port = await primaryPortNow();
      const child = port ? children.get(port) : undefined;
      if (!port || !child) throw new Error('the sentinels name no primary of this harness');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const at = Date.now();
      child.kill('SIGKILL');
      await exited;
      return { port, at };
    },
    waitForPromotion: async (oldPort, timeoutMs = 30_000) => {
      const promoted = await until(async () => {
        const port = await primaryPortNow();
        if (!port || port === oldPort) return undefined;
        const role = await withClient(port, password, (c) => c.call('ROLE') as Promise<[string]>);
        return role?.[0] === 'master' ? { port, at: Date.now() } : undefined;
      }, timeoutMs);
      // Undoes cutReplication's wrong password: the new primary may be a replica again one day.
      await withClient(promoted.port, password, (c) => c.config('SET', 'masterauth', password));
      return promoted;
    },
    cutReplication: async () => {
      const primary = await primaryPortNow();
      const info = primary ? await withClient(primary, password, (c) => c.info('replication')) : undefined;
      const replicas = [...(info ?? '').matchAll(/slave\d+:ip=[^,]+,port=(\d+)/g)].map((match) => Number(match[1]));
      if (replicas.length === 0) throw new Error('the primary has no replica to cut off');
      for (const port of replicas)
        await withClient(port, password, async (c) => {
          await c.config('SET', 'masterauth', `not-${password}`);
          await c.client('KILL', 'TYPE', 'master');
        });
    },
    restartKilled: async (port) => {
      const child = children.get(port);
      if (!child || (child.exitCode === null && child.signalCode === null)) throw new Error(`${port} still runs`);
      await launch(port, names.get(port)!);
      await until(() => replicaReady(port), 60_000);
    },
    stop: async () => {
      const exits = [...children.values()]
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map((child) => new Promise((resolve) => child.once('exit', resolve)));
      stopAll();
      await Promise.all(exits);
      process.removeListener('exit', stopAll);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function client(port: number, password: string): Redis {
  const redis = new Redis({
    host: HOST,
    port,
    password,
    lazyConnect: true,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1_000,
    commandTimeout: 2_000,
  });
  redis.on('error', () => {});
  return redis;
}

async function withClient<T>(
  port: number,
  password: string,
  use: (redis: Redis) => Promise<T>,
): Promise<T | undefined> {
  const redis = client(port, password);
  try {
    return await use(redis);
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

const reachable = (port: number, password: string) =>
  until(async () => (await withClient(port, password, (c) => c.ping())) === 'PONG', 10_000);
