/** Redis behind Sentinel: the sentinels to ask, the name of the primary they watch, the passwords. */
export interface RedisSentinelConfig {
  sentinels: { host: string; port: number }[];
  /** The name the sentinels know the primary by (`sentinel monitor <name> …`). */
  masterName: string;
  /** The primary's and replicas' password (`requirepass`), never logged. */
  password: string | undefined;
  /** The sentinels' own password (`requirepass` in sentinel.conf), never logged. */
  sentinelPassword: string | undefined;
}

export const REDIS_SENTINEL_VARIABLES = [
  {
    name: 'REDIS_SENTINELS',
    default: '(none)',
    description:
      'Redis behind Sentinel instead of REDIS_URL: the sentinels as host:port,host:port,… (port 26379 when left out; [v6]:port for IPv6). Needs REDIS_SENTINEL_MASTER; the services follow the primary through failovers (docs/operations.md#redis-sentinel).',
  },
  {
    name: 'REDIS_SENTINEL_MASTER',
    default: '(none)',
    description:
      'The name the sentinels monitor the primary by (sentinel monitor <name> …); required with REDIS_SENTINELS.',
  },
  {
    name: 'REDIS_PASSWORD',
    default: '(none)',
    description:
      "With REDIS_SENTINELS: the primary's and replicas' password (requirepass, and masterauth on the replicas). Never logged. With REDIS_URL the password goes in the URL.",
  },
  {
    name: 'REDIS_SENTINEL_PASSWORD',
    default: '(none)',
    description:
      "With REDIS_SENTINELS: the sentinels' own password (requirepass in sentinel.conf), if they require one. Never logged.",
  },
];

type Env = Record<string, string | undefined>;

/** `host:port`, `host` or `[v6]:port`; undefined when it is none of these. */
function sentinelAddress(entry: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/.exec(entry);
  if (!match) return undefined;
  const port = match[3] === undefined ? 26379 : Number(match[3]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1] ?? match[2]!, port };
}

/**
 * `REDIS_SENTINELS` and its companions; undefined when Sentinel is not configured. Passwords are
 * never put into a message, and a configuration printed or logged shows them redacted.
 */
export function redisSentinelConfig(env: Env, problems: string[]): RedisSentinelConfig | undefined {
  const list = env.REDIS_SENTINELS?.trim() || undefined;
  const masterName = env.REDIS_SENTINEL_MASTER || undefined;
  const password = env.REDIS_PASSWORD || undefined;
  const sentinelPassword = env.REDIS_SENTINEL_PASSWORD || undefined;
  if (!list) {
    for (const [name, value] of [
      ['REDIS_SENTINEL_MASTER', masterName],
      ['REDIS_PASSWORD', password],
      ['REDIS_SENTINEL_PASSWORD', sentinelPassword],
    ] as const)
      if (value)
        problems.push(
          `${name} is set but REDIS_SENTINELS is not: it belongs to Redis behind Sentinel${name === 'REDIS_PASSWORD' ? ' (with REDIS_URL, put the password in the URL)' : ''}.`,
        );
    return undefined;
  }
  if (env.REDIS_URL)
    problems.push(
      'REDIS_URL and REDIS_SENTINELS are both set: set REDIS_URL for one Redis, or REDIS_SENTINELS for Redis behind Sentinel.',
    );
  const entries = list.split(',').map((entry) => entry.trim());
  const sentinels = entries.map(sentinelAddress);
  const bad = entries.filter((_, i) => !sentinels[i]);
  if (bad.length > 0)
    problems.push(
      `REDIS_SENTINELS must be a comma-separated list of host:port (got ${bad.map((entry) => `"${entry}"`).join(', ')}).`,
    );
  if (!masterName)
    problems.push(
      'REDIS_SENTINEL_MASTER is required with REDIS_SENTINELS: the name the sentinels monitor the primary by.',
    );
  else if (!/^[A-Za-z0-9._-]{1,128}$/.test(masterName))
    problems.push(
      `REDIS_SENTINEL_MASTER must be a name of letters, digits, dots, hyphens and underscores (got "${masterName}").`,
    );
  const config: RedisSentinelConfig = {
    sentinels: sentinels.filter((address) => address !== undefined),
    masterName: masterName ?? '',
    password,
    sentinelPassword,
  };
  const redacted = () => ({
    ...config,
    password: password && '[redacted]',
    sentinelPassword: sentinelPassword && '[redacted]',
  });
  Object.defineProperty(config, 'toJSON', { value: redacted, enumerable: false });
  Object.defineProperty(config, Symbol.for('nodejs.util.inspect.custom'), { value: redacted, enumerable: false });
  return config;
}
