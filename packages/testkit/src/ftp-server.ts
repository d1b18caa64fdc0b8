import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { portAnswers, startChildServer } from './child-server.js';
import { distinctFreePorts } from './distinct-ports.js';

const VSFTPD = '/usr/sbin/vsftpd';

export interface FtpServer {
  host: string;
  port: number;
  /** `anonymous`: the server is anonymous-only, any other user is refused with 530. */
  username: string;
  password: string;
  /** The drop folder relative to the login directory (the server's root after its chroot). */
  folder: string;
  /** With `tls`: the server's self-signed certificate (PEM), what a client trusts. */
  ca?: string;
  /** The names in the drop folder, sorted (dot files too). */
  list(): string[];
  readFile(name: string): Buffer;
  stop(): Promise<void>;
}

/**
 * Debian's vsftpd (`vsftpd <conf>` in the foreground) on a free loopback port, its passive data
 * ports on loopback too. vsftpd checks local users through PAM, and tests cannot create OS users,
 * so it is anonymous-only: user `anonymous`, any password, upload, rename and delete allowed in
 * `drop`. The combination that works: the chroot (`anon_root`) is not writable (0555: vsftpd
 * refuses a writable chroot root), `drop` inside it is (0777; anonymous sessions run as the
 * Debian `ftp` user). `readOnly`: `write_enable=NO`, so STOR/RNFR/DELE answer 550. `tls`:
 * explicit FTPS (AUTH TLS) with a self-signed certificate for 127.0.0.1, TLS required for login
 * and data; vsftpd's default `require_ssl_reuse=YES` stays on (basic-ftp reuses the session).
 */
export async function startFtpServer(options: { tls?: boolean; readOnly?: boolean } = {}): Promise<FtpServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ftp-server-'));
  const root = join(dir, 'root');
  const drop = join(root, 'drop');
  const empty = join(dir, 'empty');
  for (const path of [root, drop, empty]) mkdirSync(path);
  chmodSync(drop, 0o777);
  chmodSync(root, 0o555);
  const asRoot = process.getuid?.() === 0;
  const [port, pasvMin] = await distinctFreePorts(2);
  let ca: string | undefined;
  if (options.tls) {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    ca = readFileSync(join(dir, 'cert.pem'), 'utf8');
  }
  const tls = [
    'ssl_enable=YES',
    'allow_anon_ssl=YES',
    'force_anon_logins_ssl=YES',
    'force_anon_data_ssl=YES',
    `rsa_cert_file=${join(dir, 'cert.pem')}`,
    `rsa_private_key_file=${join(dir, 'key.pem')}`,
  ];
  const conf = join(dir, 'vsftpd.conf');
  writeFileSync(
    conf,
    [
      'listen=YES',
      'listen_address=127.0.0.1',
      `listen_port=${port}`,
      'background=NO',
      // Not root: vsftpd cannot switch users or chroot, it serves as the launching user.
      ...(asRoot ? ['ftp_username=ftp'] : ['run_as_launching_user=YES']),
      'anonymous_enable=YES',
      'no_anon_password=YES',
      `anon_root=${root}`,
      'local_enable=NO',
      `write_enable=${options.readOnly ? 'NO' : 'YES'}`,
      'anon_upload_enable=YES',
      'anon_mkdir_write_enable=YES',
      'anon_other_write_enable=YES',
      'anon_umask=022',
      'seccomp_sandbox=NO',
      `secure_chroot_dir=${empty}`,
      'pasv_enable=YES',
      'pasv_address=127.0.0.1',
      `pasv_min_port=${pasvMin}`,
      // A few ports from a free one: one transfer at a time per test, a next one may reuse a port.
      `pasv_max_port=${pasvMin! + 4}`,
      'xferlog_enable=NO',
      'syslog_enable=NO',
      ...(options.tls ? tls : []),
      '',
    ].join('\n'),
  );
  let server;
  try {
    server = await startChildServer(VSFTPD, [conf], { ready: () => portAnswers(port!), timeoutMs: 15_000 });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    host: '127.0.0.1',
    port: port!,
    username: 'anonymous',
    password: 'drop-test',
    folder: 'drop',
    ...(ca ? { ca } : {}),
    list: () => readdirSync(drop).sort(),
    readFile: (name) => readFileSync(join(drop, name)),
    stop: () => (stopped ??= server.stop().then(() => rmSync(dir, { recursive: true, force: true }))),
  };
}
