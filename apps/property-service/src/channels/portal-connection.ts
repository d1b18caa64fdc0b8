import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { ApiError, type ErrorDetail } from '@platform/http';
import { checkDrop, DropError, type Drop, type DropFailureKind } from '@platform/transfer';
import { isBlockedAddress, type SsrfPolicy } from '@platform/webhooks';
import type { PortalSettings } from './portal-schemas.js';

/** The transfer package's view of a portal account. */
export function dropOf(settings: PortalSettings): Drop {
  return {
    protocol: settings.transfer,
    host: settings.host,
    port: settings.port,
    username: settings.username,
    secret: settings.secret,
    folder: settings.folder,
    ...(settings.host_key_fingerprint ? { hostKeyFingerprint: settings.host_key_fingerprint } : {}),
  };
}

/** Where a portal host may be connected to, or why not. */
export type PortalTarget = { address?: string } | { refused: string };

/**
 * The address a portal's host is connected to, checked by the webhooks' rule (no loopback, private
 * or reserved address unless the deployment allows private targets), so that a tenant cannot point
 * the worker at the deployment's own network. The connection then goes to exactly the address
 * checked: a DNS answer that changes between the check and the connection cannot redirect it.
 */
export async function portalTarget(host: string, policy: SsrfPolicy, resolve = systemResolve): Promise<PortalTarget> {
  if (policy.allowPrivateTargets) return {};
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare))
    return isBlockedAddress(bare) ? { refused: 'is a private, loopback or reserved address' } : { address: bare };
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(bare);
  } catch {
    return { refused: 'does not resolve (DNS)' };
  }
  const allowed = addresses.filter((a) => !isBlockedAddress(a.address));
  if (addresses.length === 0) return { refused: 'does not resolve (DNS)' };
  return allowed[0]
    ? { address: allowed[0].address }
    : { refused: 'resolves to a private, loopback or reserved address' };
}

const systemResolve = (host: string) => lookup(host, { all: true, verbatim: true });

/** The drop of a portal account, pinned to its checked address; a refusal throws `PortalHostRefused`. */
export async function pinnedDrop(settings: PortalSettings, policy: SsrfPolicy): Promise<Drop> {
  const target = await portalTarget(settings.host, policy);
  if ('refused' in target) throw new PortalHostRefused(settings.host, target.refused);
  return { ...dropOf(settings), ...target };
}

/** The deployment refuses to connect to a portal host (retrying does not help). */
export class PortalHostRefused extends Error {
  constructor(
    readonly host: string,
    readonly why: string,
  ) {
    super(`the portal's host ${host} ${why}`);
  }
}

const FIELD_OF: Record<DropFailureKind, string> = {
  dns: 'portal.host',
  refused: 'portal.port',
  timeout: 'portal.host',
  tls: 'portal.transfer',
  auth: 'portal.secret',
  permission: 'portal.folder',
  folder_missing: 'portal.folder',
  connection_lost: 'portal.host',
  protocol: 'portal.transfer',
};

/** What a failed connection means for the portal account's owner, with the setting to look at. */
export function connectionRefusal(settings: PortalSettings, error: DropError): ApiError {
  const where = `${settings.host}:${settings.port}`;
  const said: Record<DropFailureKind, string> = {
    dns: `The portal's host name ${settings.host} does not resolve (DNS).`,
    refused: `The portal's server ${where} refused the connection: check the host, the port and the transfer (${settings.transfer}).`,
    timeout: `The portal's server ${where} did not answer in time.`,
    tls:
      settings.transfer === 'sftp'
        ? `The SSH server ${where} did not show the host key portal.host_key_fingerprint names.`
        : `The TLS handshake with ${where} failed (its certificate is not trusted, or it does not offer TLS): ${error.message}`,
    auth: `The portal's server refused the login of the user ${settings.username}: check portal.username and portal.secret.`,
    permission: `The user ${settings.username} may not write into the folder ${settings.folder} on the portal's server.`,
    folder_missing: `The folder ${settings.folder} does not exist on the portal's server.`,
    connection_lost: `The connection to ${where} was lost during the check; try again.`,
    protocol: `The server ${where} does not speak ${settings.transfer}: ${error.message}`,
  };
  const field =
    error.kind === 'tls' && settings.transfer === 'sftp' ? 'portal.host_key_fingerprint' : FIELD_OF[error.kind];
  const details: ErrorDetail[] = [{ field, reason: 'not_allowed' }];
  return new ApiError('validation_failed', { message: said[error.kind], details });
}

/**
 * Connects and logs in once (and checks the folder takes a file): a 422 that says what failed.
 * Resolves to the settings to store: for sftp with the host key seen, unless one was given.
 */
export async function assertPortalReachable(settings: PortalSettings, policy: SsrfPolicy): Promise<PortalSettings> {
  try {
    const { hostKeyFingerprint } = await checkDrop(await pinnedDrop(settings, policy));
    return settings.transfer === 'sftp' && hostKeyFingerprint
      ? { ...settings, host_key_fingerprint: settings.host_key_fingerprint ?? hostKeyFingerprint }
      : { ...settings, host_key_fingerprint: undefined };
  } catch (error) {
    if (error instanceof DropError) throw connectionRefusal(settings, error);
    if (error instanceof PortalHostRefused)
      throw new ApiError('validation_failed', {
        message: error.why.startsWith('does not resolve')
          ? `The portal's host name ${settings.host} does not resolve (DNS).`
          : `The portal's host ${settings.host} ${error.why}.`,
        details: [{ field: 'portal.host', reason: 'not_allowed' }],
      });
    throw error;
  }
}
