import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificates {
  /** The test CA's certificate (PEM): what a client trusts. */
  ca: string;
  caPath: string;
  /** The server's certificate (signed by the CA) and its key, for the TLS-terminating proxy. */
  certPath: string;
  keyPath: string;
}

/**
 * A certificate authority of the test's own and a server certificate it signs for `localhost` and
 * 127.0.0.1 (the `openssl` command line), written into `dir`. Nothing outside the test trusts it.
 */
export function makeTestCertificates(dir: string, names: { dns?: string[]; ip?: string[] } = {}): TestCertificates {
  const dns = names.dns ?? ['localhost'];
  const ip = names.ip ?? ['127.0.0.1'];
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-noenc'];
  const ca = [
    '-subj',
    '/CN=test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=keyCertSign',
  ];
  openssl('req', '-x509', ...key, ...ca, '-keyout', path('ca.key'), '-out', path('ca.pem'), '-days', '2');
  openssl('req', '-new', ...key, '-keyout', path('server.key'), '-out', path('server.csr'), '-subj', '/CN=test-proxy');
  const altNames = [...dns.map((n) => `DNS:${n}`), ...ip.map((a) => `IP:${a}`)].join(',');
  writeFileSync(
    path('server.ext'),
    `subjectAltName=${altNames}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    path('server.csr'),
    '-CA',
    path('ca.pem'),
    '-CAkey',
    path('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    path('server.ext'),
    '-out',
    path('server.pem'),
  );
  return {
    ca: readFileSync(path('ca.pem'), 'utf8'),
    caPath: path('ca.pem'),
    certPath: path('server.pem'),
    keyPath: path('server.key'),
  };
}
