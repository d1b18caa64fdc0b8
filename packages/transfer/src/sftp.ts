import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import SftpClient from 'ssh2-sftp-client';
import type { Session } from './session.js';
import type { Drop } from './types.js';

/** ssh2's WriteStream hands its options to node's Writable; the typings omit highWaterMark. */
const WRITE_QUEUE = { highWaterMark: 8 * 1024 * 1024 } as NonNullable<SftpClient.TransferOptions['writeStreamOptions']>;

/** Whether the secret is a private key (OpenSSH or PEM) rather than a password. */
export const isPrivateKey = (secret: string) => /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/m.test(secret.trim());

/** `SHA256:<base64 without padding>` of a raw public host key, as `ssh-keygen -l` prints it. */
export const fingerprintOf = (key: Buffer) =>
  `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** Resolves `name` inside the drop's folder; `~/x` and `x` are both home-relative. */
export function remotePath(folder: string, name?: string): string {
  const base = folder.replace(/^~\/?/, '') || '.';
  return name === undefined ? base : posix.join(base, name);
}

/** Logs in over SSH and opens the SFTP subsystem. Rejects with ssh2-sftp-client's error. */
export async function openSftp(drop: Drop, timeoutMs: number): Promise<Session> {
  // The library's own listeners print every connection's end and error to the console; the
  // errors reach us through its promises, so they are not wanted twice (and never in a worker's output).
  const quiet = () => {};
  const client = new SftpClient('drop', { error: quiet, end: quiet, close: quiet });
  const expected = drop.hostKeyFingerprint;
  let seen: string | undefined;
  const connection = () => (client as unknown as { client: { destroy(): void } }).client;
  try {
    await client.connect({
      host: drop.address ?? drop.host,
      port: drop.port,
      username: drop.username,
      ...(isPrivateKey(drop.secret) ? { privateKey: drop.secret } : { password: drop.secret }),
      readyTimeout: timeoutMs,
      // A peer that vanishes without a FIN is noticed after about timeoutMs.
      keepaliveInterval: Math.max(1_000, Math.floor(timeoutMs / 3)),
      keepaliveCountMax: 3,
      tryKeyboard: false,
      // Always seen (the caller may keep it to pin the server), compared when one is expected.
      hostVerifier: (key: Buffer) => {
        seen = fingerprintOf(key);
        return expected ? seen === expected : true;
      },
    });
  } catch (error) {
    connection().destroy();
    throw error;
  }
  const path = (name?: string) => remotePath(drop.folder, name);
  return {
    hostKeyFingerprint: seen,
    openFolder: async () => {
      const stats = await client.stat(path());
      if (!stats.isDirectory) throw Object.assign(new Error(`${path()} is not a folder`), { code: 'ENOENT' });
    },
    write: async (name: string, source: Readable) => {
      // Up to 1 MiB queued lets ssh2 send several write requests before the first answer
      // (its _writev); with the default 16 KiB every 64 KiB chunk waits a round trip.
      await client.put(source, path(name), { writeStreamOptions: WRITE_QUEUE });
    },
    size: async (name) => (await client.stat(path(name))).size,
    rename: async (from, to) => {
      try {
        // posix-rename@openssh.com replaces the target atomically; plain SFTP rename refuses to.
        await client.posixRename(path(from), path(to));
      } catch (error) {
        if (!/not support/i.test(String((error as Error).message))) throw error;
        await client.delete(path(to), true);
        await client.rename(path(from), path(to));
      }
    },
    remove: async (name) => {
      await client.delete(path(name), true);
    },
    list: async () => (await client.list(path())).map((entry) => entry.name).sort(),
    read: async (name) => (await client.get(path(name))) as Buffer,
    destroy: () => connection().destroy(),
    close: async () => {
      await client.end().catch(() => undefined);
      connection().destroy();
    },
  };
}
