import { SMOKE_SERVICES, type SmokeService } from './apis.js';

export const USAGE =
  'Usage: pnpm smoke --base-url <url> --key <api key> [--base-url <url> --key <api key> ...] [--json] [--timeout <seconds>]\n' +
  '  One --base-url/--key pair per service; the key prefix tells which service it is (pm_… property-marketing service, ap_… agent platform).';

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
}

/** An operator's mistake on the command line: one line, exit code 2. */
export class UsageError extends Error {}

export const displayKey = (key: string): string => `${key.slice(0, DISPLAY_LENGTH)}…`;

/** The base URL as printed: without any user name or password in it. */
export const displayUrl = (url: URL): string => `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;

/** `--flag value` and `--flag=value`; `null` for `--help`. */
export function parseArgs(argv: readonly string[]): SmokeOptions | null {
  const urls: string[] = [];
  const keys: string[] = [];
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
    else if (flag === '--key') keys.push(value());
    else if (flag === '--json' && inline === undefined) json = true;
    else if (flag === '--timeout') timeoutS = seconds(value());
    else if (flag.startsWith('-')) throw new UsageError(`Unknown option ${flag.slice(0, 40)}.`);
    else throw new UsageError(`Unexpected value in position ${i + 1}: values follow --base-url, --key or --timeout.`);
  }
  if (urls.length === 0 && keys.length === 0) throw new UsageError('Give at least one --base-url and --key pair.');
  if (urls.length !== keys.length)
    throw new UsageError(`${urls.length} --base-url but ${keys.length} --key: give them in pairs.`);
  const targets = urls.map((url, i) => ({
    baseUrl: baseUrl(url),
    key: keys[i],
    keyDisplay: displayKey(keys[i]),
    service: serviceOf(keys[i]),
  }));
  return { targets, json, timeoutMs: timeoutS * 1000 };
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

function serviceOf(key: string): SmokeService {
  const prefix = KEY_PREFIX.exec(key)?.[1];
  const service = prefix !== undefined && Object.hasOwn(SMOKE_SERVICES, prefix) ? SMOKE_SERVICES[prefix] : undefined;
  if (!service) {
    const known = Object.keys(SMOKE_SERVICES)
      .map((p) => `${p}_`)
      .join(', ');
    throw new UsageError(
      `The key ${displayKey(key)} is not a key of a known service (its prefix must be one of ${known}, then test_ or live_).`,
    );
  }
  return service;
}
