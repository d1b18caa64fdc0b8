import { isIP } from 'node:net';
import { Writable, type Readable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';
import type { Step } from './errors.js';
import type { Session } from './session.js';
import { remotePath } from './sftp.js';
import type { Drop } from './types.js';

/** An error of a login step, tagged with the step so that its FTP code is read right. */
export class StepError extends Error {
  constructor(
    readonly step: Step,
    readonly error: unknown,
  ) {
    super((error as Error)?.message ?? String(error));
  }
}

const tagged = async <T>(step: Step, work: Promise<T>): Promise<T> => {
  try {
    return await work;
  } catch (error) {
    throw new StepError(step, error);
  }
};

/**
 * Logs in over FTP, for `ftps` with explicit TLS (AUTH TLS) on the control connection and TLS
 * on every data connection, the certificate verified against the system's CAs and `drop.ca`.
 * The steps are basic-ftp's `access()`, taken one by one to tell a TLS failure from a refused login.
 */
export async function openFtp(drop: Drop, timeoutMs: number): Promise<Session> {
  // basic-ftp's timeout is an idle timeout on the control and data sockets.
  const client = new Client(timeoutMs);
  try {
    await tagged('connect', client.connect(drop.address ?? drop.host, drop.port));
    if (drop.protocol === 'ftps') {
      await tagged(
        'tls',
        client.useTLS({
          host: drop.host,
          ...(isIP(drop.host) ? {} : { servername: drop.host }),
          ...(drop.ca ? { ca: drop.ca } : {}),
        }),
      );
    }
    await client.sendIgnoringError('OPTS UTF8 ON');
    await tagged('login', client.login(drop.username, drop.secret));
    await client.useDefaultSettings();
  } catch (error) {
    client.close();
    throw error;
  }
  const folder = remotePath(drop.folder);
  return {
    openFolder: async () => {
      await client.cd(folder);
    },
    write: async (name: string, source: Readable) => {
      await client.uploadFrom(source, name);
    },
    size: (name) => client.size(name),
    rename: async (from, to) => {
      try {
        await client.rename(from, to);
      } catch (error) {
        // Some servers refuse to rename onto an existing file: remove it, then rename. Only
        // when the server says so: a rename refused for another reason keeps the old file.
        if (!(error instanceof FTPError) || error.code < 500 || !/exist/i.test(error.message)) throw error;
        await client.remove(to, true);
        await client.rename(from, to);
      }
    },
    remove: async (name) => {
      await client.remove(name, true);
    },
    list: async () => (await client.list()).map((entry) => entry.name).sort(),
    read: async (name) => {
      const chunks: Buffer[] = [];
      const sink = new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          chunks.push(chunk);
          done();
        },
      });
      await client.downloadTo(sink, name);
      return Buffer.concat(chunks);
    },
    destroy: () => client.close(),
    close: async () => {
      await client.send('QUIT').catch(() => undefined);
      client.close();
    },
  };
}
