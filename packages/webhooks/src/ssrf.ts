import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Address ranges a webhook may never reach in production: loopback, private (RFC 1918),
 * link-local (cloud metadata 169.254.169.254), CGNAT, unique-local, multicast, documentation,
 * reserved and unspecified addresses. IPv6 addresses that carry an IPv4 address (IPv4-mapped,
 * IPv4-compatible, IPv4-translated, 6to4 and NAT64) are judged by the IPv4 address inside them.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (already known to be one: `isIP` said 6). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, ''); // a zone id does not change the address
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 255];
  });
}

/**
 * The IPv4 addresses an IPv6 address may lead to, when it carries one: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), 6to4
 * (2002:aabb:ccdd::/16), NAT64 (64:ff9b::/96) and local-use NAT64 (64:ff9b:1::/48, RFC 8215: the
 * IPv4 address sits in the last 32 bits when a /96 prefix is used, around the `u` octet in the
 * RFC 6052 /48 layout; where the form is ambiguous, both candidates are judged). Empty for any
 * other address.
 */
function embeddedIpv4(address: string): string[] {
  const b = ipv6Bytes(address);
  const v4 = (...at: number[]) => at.map((i) => b[i]).join('.');
  const zero = (from: number, to: number) => b.slice(from, to).every((byte) => byte === 0);
  const starts = (...prefix: number[]) => prefix.every((byte, i) => b[i] === byte);
  if (zero(0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff))) return [v4(12, 13, 14, 15)];
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return [v4(12, 13, 14, 15)];
  if (starts(0x00, 0x64, 0xff, 0x9b) && zero(4, 12)) return [v4(12, 13, 14, 15)];
  if (starts(0x00, 0x64, 0xff, 0x9b, 0x00, 0x01)) {
    if (zero(6, 12)) return [v4(12, 13, 14, 15)];
    if (zero(11, 16)) return [v4(6, 7, 9, 10)];
    return [v4(12, 13, 14, 15), v4(6, 7, 9, 10)];
  }
  if (starts(0x20, 0x02)) return [v4(2, 3, 4, 5)];
  return [];
}

export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(bare);
    return inner.length > 0 ? inner.some((v4) => blocked.check(v4, 'ipv4')) : blocked.check(bare, 'ipv6');
  }
  return true; // not an address at all: refuse rather than guess
}

export interface SsrfPolicy {
  /** Sandbox and tests only: allow http, loopback and private targets. */
  allowPrivateTargets: boolean;
  /**
   * A sandbox deployment (never production): the refusal of an http, loopback or private target
   * says that the operator can allow them for local testing.
   */
  sandbox?: boolean;
}

/** Appended to the refusals of http and private targets in a sandbox. */
export const SANDBOX_PRIVATE_TARGETS_HINT =
  'for local testing, the operator of this sandbox can set WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow http, loopback and private targets (never possible in production)';

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/** Why a URL may not receive webhooks, or null when it may. */
export async function checkTargetUrl(
  raw: string,
  policy: SsrfPolicy,
  resolve: Resolver = systemResolver,
): Promise<string | null> {
  const problem = await targetProblem(raw, policy, resolve);
  const privateTarget =
    (problem === 'must be an https URL' && /^\s*http:/i.test(raw)) ||
    (problem !== null && problem.includes('private, loopback or reserved'));
  return privateTarget && policy.sandbox && !policy.allowPrivateTargets
    ? `${problem}; ${SANDBOX_PRIVATE_TARGETS_HINT}`
    : problem;
}

async function targetProblem(raw: string, policy: SsrfPolicy, resolve: Resolver): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid absolute URL';
  }
  const allowedSchemes = policy.allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!allowedSchemes.includes(url.protocol))
    return policy.allowPrivateTargets ? 'must be an http or https URL' : 'must be an https URL';
  if (url.username || url.password) return 'must not contain credentials';
  if (policy.allowPrivateTargets) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isBlockedAddress(host) ? 'points to a private, loopback or reserved address' : null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'host name does not resolve';
  }
  if (addresses.length === 0) return 'host name does not resolve';
  return addresses.some((a) => isBlockedAddress(a.address))
    ? 'resolves to a private, loopback or reserved address'
    : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for undici's `connect` option: the connection goes to an address that was checked
 * in this very lookup, so a DNS answer that changes after registration (rebinding) cannot
 * reach a private address.
 */
export function guardedLookup(policy: SsrfPolicy, resolve: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const allowed = policy.allowPrivateTargets ? addresses : addresses.filter((a) => !isBlockedAddress(a.address));
        if (allowed.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} resolves only to blocked addresses`);
          error.code = 'EBLOCKED';
          callback(error, []);
          return;
        }
        if (options.all) callback(null, allowed);
        else callback(null, allowed[0].address, allowed[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
