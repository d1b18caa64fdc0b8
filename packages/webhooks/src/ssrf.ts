import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Address ranges a webhook may never reach in production: loopback, private (RFC 1918),
 * link-local (cloud metadata 169.254.169.254), CGNAT, unique-local, multicast, documentation,
 * reserved and unspecified addresses. IPv4-mapped and NAT64 IPv6 addresses are judged by the
 * IPv4 address inside them.
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

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(bare);
    return inner ? blocked.check(inner, 'ipv4') : blocked.check(bare, 'ipv6');
  }
  return true; // not an address at all: refuse rather than guess
}

export interface SsrfPolicy {
  /** Sandbox and tests only: allow http, loopback and private targets. */
  allowPrivateTargets: boolean;
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** Why a URL may not receive webhooks, or null when it may. */
export async function checkTargetUrl(raw: string, policy: SsrfPolicy, resolve: Resolver = systemResolver): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid absolute URL';
  }
  const allowedSchemes = policy.allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!allowedSchemes.includes(url.protocol)) return policy.allowPrivateTargets ? 'must be an http or https URL' : 'must be an https URL';
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
  return addresses.some((a) => isBlockedAddress(a.address)) ? 'resolves to a private, loopback or reserved address' : null;
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
