import { SMOKE_SERVICES, type SmokeService } from './apis.js';

export const USAGE =
  'Usage: pnpm smoke --base-url <url> --key-env <NAME> [--base-url <url> --key-env <NAME> ...] [--json] [--timeout <seconds>]\n' +
  '  One --base-url/--key-env pair per service; the key prefix tells which service it is (pm_… property-marketing service, ap_… agent platform).\n' +
  '  --key-env NAME: the key is the value of the environment variable NAME, so it stays out of the command line,\n' +
  '  process lists and CI logs. (--key <api key> still works, with a warning: anyone who can list processes sees it.)';

/** Printed when a key is given on the command line (`--key`) rather than in the environment. */
export const KEY_IN_ARGV_WARNING =
  'Warning: --key puts the API key on the command line, where process lists (ps) and CI logs (pnpm echoes the command) show it; put it in an environment variable and pass its name with --key-env NAME.';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const DEFAULT_TIMEOUT_S = 10;
const KEY_PREFIX = /^([a-z]{2,8})_(test|live)_/;
/** Like the key's display prefix (`packages/auth`): enough to tell keys apart, never enough to use one. */
const DISPLAY_LENGTH = 12;

export interface Target {
  baseUrl: URL;
  key: string;
  /** What may be printed instead of the key. */
  keyDisplay: string;
  service: SmokeService;
}

export interface SmokeOptions {
  targets: Target[];
  json: boolean;
  timeoutMs: number;
  /** For stderr before the run (a key given with --key). */
  warnings: string[];
}

/** An operator's mistake on the command line: one line, exit code 2. */
export class UsageError extends Error {}

export const displayKey = (key: string): string => `${key.slice(0, DISPLAY_LENGTH)}…`;

/** Anything shaped like an API key (`pm_live_…`) beyond its display prefix. */
const KEY_LIKE = /\b[a-z]{2,8}_(?:test|live)_[0-9A-Za-z]{5,}/g;

/** A last guard: whatever a server echoes or an operator mistypes, a key is shown only by its display prefix. */
export const redact = (text: string): string => text.replace(KEY_LIKE, (key) => displayKey(key));

/** The base URL as printed: without any user name or password in it. */
export const displayUrl = (url: URL): string => `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;

/** `--flag value` and `--flag=value`; `null` for `--help`. `env`: where `--key-env` names are looked up. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): SmokeOptions | null {
  const urls: string[] = [];
  const keys: GivenKey[] = [];
  const warnings = new Set<string>();
  let json = false;
  let timeoutS = DEFAULT_TIMEOUT_S;
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] =
      args[i].startsWith('--') && args[i].includes('=') ? splitOnce(args[i]) : [args[i], undefined];
    const value = (): string => {
      const given = inline ?? args[++i];
      if (given === undefined || given === '' || (inline === undefined && given.startsWith('--')))
        throw new UsageError(`${flag} needs a value.`);
      return given;
    };
    if (flag === '--help' || flag === '-h') return null;
    else if (flag === '--base-url') urls.push(value());
    else if (flag === '--key') {
      const key = value();
      keys.push({ key, named: `The key ${displayKey(key)}` });
      warnings.add(KEY_IN_ARGV_WARNING);
    } else if (flag === '--key-env') {
      const name = value();
      keys.push({ key: keyFromEnv(name, env), named: `The key in ${name} (--key-env)` });
    } else if (flag === '--json' && inline === undefined) json = true;
    else if (flag === '--timeout') timeoutS = seconds(value());
    else if (flag.startsWith('-')) throw new UsageError(`Unknown option ${flag.slice(0, 40)}.`);
    else
      throw new UsageError(
        `Unexpected value in position ${i + 1}: values follow --base-url, --key-env, --key or --timeout.`,
      );
  }
  if (urls.length === 0 && keys.length === 0) throw new UsageError('Give at least one --base-url and --key-env pair.');
  if (urls.length !== keys.length)
    throw new UsageError(`${urls.length} --base-url but ${keys.length} --key-env/--key: give them in pairs.`);
  const targets = urls.map((url, i) => ({
    baseUrl: baseUrl(url),
    key: keys[i].key,
    keyDisplay: displayKey(keys[i].key),
    service: serviceOf(keys[i]),
  }));
  return { targets, json, timeoutMs: timeoutS * 1000, warnings: [...warnings] };
}

/** The key in the environment variable `name`; the errors name the variable, never its value. */
function keyFromEnv(name: string, env: NodeJS.ProcessEnv): string {
  if (KEY_PREFIX.test(name))
    throw new UsageError(
      `--key-env takes the name of an environment variable holding the key, not the key (${displayKey(name)}); e.g. --key-env SMOKE_PM_KEY.`,
    );
  if (!ENV_NAME.test(name))
    throw new UsageError(
      `--key-env takes the name of an environment variable (letters, digits, _), not ${JSON.stringify(displayKey(name))}; e.g. --key-env SMOKE_PM_KEY.`,
    );
  const key = env[name]?.trim();
  if (key === undefined) throw new UsageError(`The environment variable ${name} (--key-env) is not set.`);
  if (key === '') throw new UsageError(`The environment variable ${name} (--key-env) is empty.`);
  return key;
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 300)
    throw new UsageError(
      `--timeout must be a number of seconds from 0 to 300, not ${JSON.stringify(value.slice(0, 20))}.`,
    );
  return n;
}

function baseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--base-url ${JSON.stringify(value.slice(0, 200))} is not a URL (e.g. https://api.example.com).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--base-url must start with http:// or https://, not ${url.protocol}//.`);
  if (url.search || url.hash) throw new UsageError('--base-url must not have a query or fragment.');
  return url;
}

/** A key and how an error names it: by its display prefix (--key), by its variable (--key-env: nothing of the value). */
interface GivenKey {
  key: string;
  named: string;
}

function serviceOf({ key, named }: GivenKey): SmokeService {
  const prefix = KEY_PREFIX.exec(key)?.[1];
  const service = prefix !== undefined && Object.hasOwn(SMOKE_SERVICES, prefix) ? SMOKE_SERVICES[prefix] : undefined;
  if (!service) {
    const known = Object.keys(SMOKE_SERVICES)
      .map((p) => `${p}_`)
      .join(', ');
    throw new UsageError(
      `${named} is not a key of a known service (its prefix must be one of ${known}, then test_ or live_).`,
    );
  }
  return service;
}
