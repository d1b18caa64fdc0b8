import { DropError, type Drop, type DropFailureKind } from './types.js';

/** The step of a drop operation an error happened in: the same code means different things. */
export type Step = 'connect' | 'tls' | 'login' | 'folder' | 'write' | 'rename' | 'read' | 'list' | 'remove';

const STEP_TEXT: Record<Step, string> = {
  connect: 'connecting',
  tls: 'securing the connection',
  login: 'logging in',
  folder: 'opening the folder',
  write: 'writing',
  rename: 'renaming',
  read: 'reading',
  list: 'listing the folder',
  remove: 'removing',
};

const KIND_TEXT: Record<DropFailureKind, string> = {
  dns: 'the host name does not resolve',
  refused: 'the server cannot be reached (connection refused or no route)',
  timeout: 'no answer in time',
  tls: 'the server could not be verified (certificate or host key)',
  auth: 'the server refused the credentials',
  permission: 'the account may not write there',
  folder_missing: 'the folder does not exist',
  connection_lost: 'the connection was lost',
  protocol: 'the server answered unexpectedly',
};

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

// ssh2-sftp-client's and basic-ftp's words for a connection that went away.
const LOST =
  /unexpected (close|end) event|connection unexpectedly|FIN packet|transmission error|socket is disconnected|client is closed|no sftp connection|not connected|socket hang up|connection lost|premature close/i;

/** The kind of a failure of ssh2 / ssh2-sftp-client or basic-ftp (and node's net and tls). */
export function kindOf(error: unknown, step: Step): DropFailureKind {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') return 'dns';
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'refused';
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(text)) return 'timeout';
  if (typeof code === 'string' && (TLS_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')))
    return 'tls';
  if (/host denied|verification failed/i.test(text)) return 'tls';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || LOST.test(text)) return 'connection_lost';
  if (/all configured authentication methods failed|cannot parse privatekey|passphrase|authentication/i.test(text))
    return 'auth';
  if (step === 'tls') return 'tls';
  // FTP reply codes (basic-ftp's FTPError): 530 not logged in, 532 account needed.
  if (code === 530 || code === 532) return 'auth';
  if (code === 550 && step === 'folder') return 'folder_missing';
  if (code === 550 || code === 553) return 'permission';
  // SFTP status codes (ssh2): 2 no such file, 3 permission denied; ssh2-sftp-client's ENOENT.
  if (code === 3 || code === 'EACCES') return 'permission';
  if ((code === 2 || code === 'ENOENT') && (step === 'folder' || step === 'write')) return 'folder_missing';
  return 'protocol';
}

/** Replaces the secret (and each long line of a key) wherever it would appear in a text. */
export function scrub(text: string, secret: string): string {
  const parts = [secret, ...secret.split(/\r?\n/).filter((line) => line.length >= 16)].filter(
    (part) => part.length >= 4,
  );
  return parts.reduce((result, part) => result.split(part).join('[secret]'), text);
}

export function describeDrop(drop: Drop): string {
  return `${drop.protocol.toUpperCase()} drop ${drop.username}@${drop.host}:${drop.port}`;
}

/** A DropError for `error` at `step`: what failed in plain English, the library's words after it. */
export function dropError(error: unknown, step: Step, drop: Drop, subject?: string): DropError {
  if (error instanceof DropError) return error;
  const kind = kindOf(error, step);
  const { message, code } = error as { message?: unknown; code?: unknown };
  const detail = typeof message === 'string' ? message : String(error);
  const what = `${STEP_TEXT[step]}${subject ? ` ${subject}` : ''}`;
  const codeText = code === undefined ? '' : ` [${String(code)}]`;
  return new DropError(
    kind,
    scrub(`${describeDrop(drop)}: ${what} failed: ${KIND_TEXT[kind]} (${detail}${codeText})`, drop.secret),
  );
}
