export type TransferProtocol = 'sftp' | 'ftp' | 'ftps';

/** An import account of a file drop: where and as whom files are delivered. */
export interface Drop {
  protocol: TransferProtocol;
  host: string;
  port: number;
  username: string;
  /** A password; for sftp also an OpenSSH/PEM private key (detected by its `-----BEGIN` line). */
  secret: string;
  /** Absolute or home-relative folder the files go into; must exist. */
  folder: string;
  /**
   * ftps only: a CA certificate (PEM) to trust in addition to the system's, for a server whose
   * certificate no public CA signed (a self-signed one: its own certificate). The certificate is
   * always verified, host name included; there is no switch to skip that.
   */
  ca?: string;
  /**
   * sftp only: the server's host key fingerprint as `ssh-keygen -l` prints it (`SHA256:…`).
   * Given, a server with another host key is refused (kind `tls`); absent, any host key is
   * accepted, as on a first connection with OpenSSH's `StrictHostKeyChecking=accept-new`.
   */
  hostKeyFingerprint?: string;
  /**
   * The IP address to connect to instead of resolving `host` again (a caller that checked where a
   * name points connects to exactly that address); `host` stays the name a TLS certificate must carry.
   */
  address?: string;
}

export interface DropOptions {
  /** Connecting, and any step without progress, fails after this long (default 15 s). */
  timeoutMs?: number;
}

export type DropFailureKind =
  'dns' | 'refused' | 'timeout' | 'tls' | 'auth' | 'permission' | 'folder_missing' | 'connection_lost' | 'protocol';

/**
 * Kinds where retrying the same drop will not help until someone changes the account, its
 * permissions, its folder or its certificate. `dns` is not among them: a resolver outage
 * (EAI_AGAIN) passes, and even "not found" can be a zone being changed; a retry later costs little.
 */
const PERMANENT: ReadonlySet<DropFailureKind> = new Set(['auth', 'permission', 'folder_missing', 'tls']);

/** A failed drop operation. Its message names the drop and the step, never the secret. */
export class DropError extends Error {
  readonly kind: DropFailureKind;
  /** true: retrying will not help (auth, permission, folder_missing, tls). */
  readonly permanent: boolean;

  constructor(kind: DropFailureKind, message: string) {
    super(message);
    this.name = 'DropError';
    this.kind = kind;
    this.permanent = PERMANENT.has(kind);
  }
}
