import { ApiError, type ErrorDetail } from '@platform/http';
import { checkDrop, DropError, type Drop, type DropFailureKind } from '@platform/transfer';
import { checkTargetUrl, type SsrfPolicy } from '@platform/webhooks';
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
  };
}

/**
 * Why a portal host may not be connected to, or null: the webhooks' rule (no loopback, private or
 * reserved address unless the deployment allows private targets), so that a tenant cannot point
 * the worker at the deployment's own network.
 */
export async function portalHostProblem(host: string, policy: SsrfPolicy): Promise<string | null> {
  const problem = await checkTargetUrl(
    `https://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`,
    policy,
  );
  return problem?.replace(/must be an https URL/, 'is not allowed') ?? null;
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
    tls: `The TLS handshake with ${where} failed (its certificate is not trusted, or it does not offer TLS): ${error.message}`,
    auth: `The portal's server refused the login of the user ${settings.username}: check portal.username and portal.secret.`,
    permission: `The user ${settings.username} may not write into the folder ${settings.folder} on the portal's server.`,
    folder_missing: `The folder ${settings.folder} does not exist on the portal's server.`,
    connection_lost: `The connection to ${where} was lost during the check; try again.`,
    protocol: `The server ${where} does not speak ${settings.transfer}: ${error.message}`,
  };
  const details: ErrorDetail[] = [{ field: FIELD_OF[error.kind], reason: 'not_allowed' }];
  return new ApiError('validation_failed', { message: said[error.kind], details });
}

/** Connects and logs in once (and checks the folder takes a file): a 422 that says what failed. */
export async function assertPortalReachable(settings: PortalSettings, policy: SsrfPolicy): Promise<void> {
  const problem = await portalHostProblem(settings.host, policy);
  if (problem)
    throw new ApiError('validation_failed', {
      message: problem.includes('does not resolve')
        ? `The portal's host name ${settings.host} does not resolve (DNS).`
        : `The portal's host ${settings.host} ${problem}.`,
      details: [{ field: 'portal.host', reason: 'not_allowed' }],
    });
  try {
    await checkDrop(dropOf(settings));
  } catch (error) {
    if (error instanceof DropError) throw connectionRefusal(settings, error);
    throw error;
  }
}
