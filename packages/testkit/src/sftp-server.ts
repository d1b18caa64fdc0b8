import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { portAnswers, startChildServer } from './child-server.js';
import { freePort } from './ports.js';

const SSHD = '/usr/sbin/sshd';

export interface SftpServer {
  host: string;
  port: number;
  /** The OS user running the tests (sshd logs in as that user with the generated key). */
  username: string;
  /** The client's private key (OpenSSH ed25519, no passphrase), the key `authorized_keys` accepts. */
  privateKey: string;
  /** The host key's fingerprint as `ssh-keygen -l` prints it (`SHA256:…`). */
  hostKeyFingerprint: string;
  /** An existing folder for the drops (absolute, inside the server's temporary root). */
  folder: string;
  /** The names in `folder`, sorted. */
  list(): string[];
  readFile(name: string): Buffer;
  stop(): Promise<void>;
}

/**
 * Debian's OpenSSH server (`/usr/sbin/sshd -D -e`) on a free loopback port with a configuration,
 * host key and client key of its own in a temporary directory: public-key login only, for the
 * current OS user, SFTP through `internal-sftp`. `readOnly` serves SFTP read-only
 * (`internal-sftp -R`): every write is refused with SSH2_FX_PERMISSION_DENIED, also for root,
 * which file permissions would not stop.
 */
export async function startSftpServer(options: { readOnly?: boolean } = {}): Promise<SftpServer> {
  const root = mkdtempSync(join(tmpdir(), 'sftp-server-'));
  const folder = join(root, 'drop');
  mkdirSync(folder);
  const path = (name: string) => join(root, name);
  const keygen = (file: string) =>
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'test', '-f', path(file)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  keygen('host_key');
  keygen('client_key');
  writeFileSync(path('authorized_keys'), readFileSync(path('client_key.pub')), { mode: 0o600 });
  const hostKeyFingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', path('host_key.pub')], {
    encoding: 'utf8',
  }).split(' ')[1]!;
  // sshd checks that its privilege separation directory exists when it runs as root.
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  const port = await freePort();
  writeFileSync(
    path('sshd_config'),
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      `HostKey ${path('host_key')}`,
      `PidFile ${path('sshd.pid')}`,
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      `AuthorizedKeysFile ${path('authorized_keys')}`,
      'StrictModes no',
      // The tests may run as root (CI); only key logins are possible anyway.
      'PermitRootLogin prohibit-password',
      `AllowUsers ${userInfo().username}`,
      'LogLevel ERROR',
      `Subsystem sftp internal-sftp${options.readOnly ? ' -R' : ''}`,
      '',
    ].join('\n'),
  );
  let server;
  try {
    server = await startChildServer(SSHD, ['-D', '-e', '-f', path('sshd_config')], {
      ready: () => portAnswers(port),
      timeoutMs: 15_000,
    });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    host: '127.0.0.1',
    port,
    username: userInfo().username,
    privateKey: readFileSync(path('client_key'), 'utf8'),
    hostKeyFingerprint,
    folder,
    list: () => readdirSync(folder).sort(),
    readFile: (name) => readFileSync(join(folder, name)),
    stop: () => (stopped ??= server.stop().then(() => rmSync(root, { recursive: true, force: true }))),
  };
}
