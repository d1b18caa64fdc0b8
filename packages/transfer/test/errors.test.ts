import { describe, expect, it } from 'vitest';
import { dropError, kindOf, scrub } from '../src/errors.js';
import type { Drop } from '../src/index.js';

const failure = (message: string, code?: string | number) => Object.assign(new Error(message), { code });

describe('kindOf (the shapes the servers in the other tests do not produce)', () => {
  it.each([
    [failure('getaddrinfo EAI_AGAIN portal.example', 'EAI_AGAIN'), 'connect', 'dns'],
    [failure('connect ETIMEDOUT 192.0.2.1:22', 'ETIMEDOUT'), 'connect', 'timeout'],
    [failure('Timeout (data socket)'), 'write', 'timeout'],
    [failure('connect EHOSTUNREACH 192.0.2.1:21', 'EHOSTUNREACH'), 'connect', 'refused'],
    [failure('write EPIPE', 'EPIPE'), 'write', 'connection_lost'],
    [failure('Server closed connection unexpectedly.'), 'rename', 'connection_lost'],
    [failure("Hostname/IP does not match certificate's altnames", 'ERR_TLS_CERT_ALTNAME_INVALID'), 'tls', 'tls'],
    [failure('certificate has expired', 'CERT_HAS_EXPIRED'), 'tls', 'tls'],
    [failure('553 Could not create file.', 553), 'write', 'permission'],
    [failure('550 Permission denied.', 550), 'write', 'permission'],
    [failure('550 Failed to change directory.', 550), 'folder', 'folder_missing'],
    [failure('530 Login incorrect.', 530), 'login', 'auth'],
    [failure('_put: Write stream error: Permission denied x.part', 3), 'write', 'permission'],
    [failure('_xstat: No such file: /in', 'ENOENT'), 'folder', 'folder_missing'],
    [failure('Cannot parse privateKey: Unsupported key format'), 'connect', 'auth'],
    [failure('452 Insufficient storage space', 452), 'write', 'protocol'],
  ] as const)('%s at %s → %s', (error, step, kind) => {
    expect(kindOf(error, step)).toBe(kind);
  });
});

describe('messages', () => {
  const drop: Drop = { protocol: 'ftp', host: 'h', port: 21, username: 'u', secret: 's3cr3t-pw', folder: 'in' };

  it('never carry the secret, even when a library repeats it', () => {
    const error = dropError(failure('530 user u with password s3cr3t-pw refused', 530), 'login', drop);
    expect(error.message).not.toContain('s3cr3t-pw');
    expect(error.message).toContain('[secret]');
    expect({ kind: error.kind, permanent: error.permanent }).toEqual({ kind: 'auth', permanent: true });
  });

  it('scrub every long line of a key', () => {
    const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAB3NzaC1lZDI1NTE5AAAA\n-----END OPENSSH PRIVATE KEY-----';
    expect(scrub('oops AAAAB3NzaC1lZDI1NTE5AAAA here', key)).toBe('oops [secret] here');
  });
});
